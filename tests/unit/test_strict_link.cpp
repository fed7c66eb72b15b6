// Input strictness, links: a link is accepted only in the one form trnsim writes. The
// base64url text must be canonical (no padding, no characters outside the URL alphabet,
// zero trailing bits) and the MessagePack must be the shortest encoding of every value
// with no repeated key -- written here by an independent minimal encoder and, in every
// longer variant, refused; every example's link round trips byte for byte; the scenario a
// link carries is read as strictly as a file.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "embedded.h"
#include "link/link.h"
#include "scenario/scenario.h"
#include "test_support.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_strict_link {

using test_support::error_of;
using trnsim::json;

namespace {

// Which value headers to write longer than needed (all false: the canonical form).
struct Wide {
  bool ints = false, strings = false, maps = false, floats = false;
};

void be(std::string& out, std::uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
}

// MessagePack of a JSON value (the spec, github.com/msgpack/msgpack/blob/master/spec.md).
void encode(const json& j, const Wide& w, std::string& out) {
  if (j.is_null()) {
    out += '\xc0';
  } else if (j.is_boolean()) {
    out += j.get<bool>() ? '\xc3' : '\xc2';
  } else if (j.is_number_unsigned() || (j.is_number_integer() && j.get<std::int64_t>() >= 0)) {
    std::uint64_t v = j.get<std::uint64_t>();
    if (v < 128 && !w.ints) out += static_cast<char>(v);                     // positive fixint
    else if (v < 256 && !w.ints) out += '\xcc', be(out, v, 1);               // uint 8
    else if (v < 65536) out += '\xcd', be(out, v, 2);                        // uint 16
    else if (v < 4294967296ull) out += '\xce', be(out, v, 4);                // uint 32
    else out += '\xcf', be(out, v, 8);                                       // uint 64
  } else if (j.is_number_integer()) {
    std::int64_t v = j.get<std::int64_t>();
    if (v >= -32 && !w.ints) out += static_cast<char>(v);                    // negative fixint
    else if (v >= -128 && !w.ints) out += '\xd0', be(out, static_cast<std::uint8_t>(v), 1);
    else if (v >= -32768) out += '\xd1', be(out, static_cast<std::uint16_t>(v), 2);
    else out += '\xd3', be(out, static_cast<std::uint64_t>(v), 8);
  } else if (j.is_number_float()) {
    double d = j.get<double>();
    float f = static_cast<float>(d);
    if (static_cast<double>(f) == d && !w.floats) {                          // float 32 when exact
      std::uint32_t u;
      std::memcpy(&u, &f, 4);
      out += '\xca', be(out, u, 4);
    } else {
      std::uint64_t u;
      std::memcpy(&u, &d, 8);
      out += '\xcb', be(out, u, 8);
    }
  } else if (j.is_string()) {
    const std::string& s = j.get_ref<const std::string&>();
    if (s.size() < 32 && !w.strings) out += static_cast<char>(0xa0 | s.size());  // fixstr
    else if (s.size() < 256) out += '\xd9', be(out, s.size(), 1);               // str 8
    else out += '\xda', be(out, s.size(), 2);                                   // str 16
    out += s;
  } else if (j.is_array()) {
    if (j.size() < 16) out += static_cast<char>(0x90 | j.size());
    else out += '\xdc', be(out, j.size(), 2);
    for (const auto& e : j) encode(e, w, out);
  } else if (j.is_object()) {
    if (j.size() < 16 && !w.maps) out += static_cast<char>(0x80 | j.size());  // fixmap
    else out += '\xde', be(out, j.size(), 2);                                 // map 16
    for (auto it = j.begin(); it != j.end(); ++it) {
      encode(it.key(), w, out);
      encode(it.value(), w, out);
    }
  }
}

std::string encoded(const json& j, const Wide& w = {}) {
  std::string out;
  encode(j, w, out);
  return out;
}

std::string link_of(const std::string& msgpack) { return "#s=1." + trnsim::base64url_encode(msgpack); }

std::string decode_error(const std::string& link) {
  return error_of([&] { trnsim::decode_fragment(link); });
}

std::vector<std::string> example_keys() {
  std::vector<std::string> keys;
  for (const auto& key : trnsim::embedded_keys("examples/"))
    if (key.find('/', 9) == std::string::npos) keys.push_back(key);
  return keys;
}

}  // namespace

TEST_CASE("every example's link is the shortest MessagePack of its canonical JSON and round trips", "[strict]") {
  for (const auto& key : example_keys()) {
    INFO(key);
    json canon = trnsim::scenario_to_json(trnsim::parse_scenario(*trnsim::find_embedded(key), key));
    std::string link = trnsim::make_link(canon);
    // The fragment is base64url (no padding) of the minimal encoding written independently here.
    CHECK(link == std::string(trnsim::kDefaultLinkBase) + link_of(encoded(canon)));
    json back = trnsim::decode_fragment(link);
    CHECK(back.dump() == canon.dump());
    CHECK(trnsim::make_link(trnsim::scenario_to_json(trnsim::scenario_from_json(back))) == link);
  }
}

TEST_CASE("links in any longer MessagePack form are refused", "[strict]") {
  json canon = trnsim::scenario_to_json(trnsim::default_scenario());
  REQUIRE(trnsim::decode_fragment(link_of(encoded(canon))) == canon);
  const char* expected = "link: non-canonical scenario data";
  Wide ints, strings, maps, floats;
  ints.ints = true, strings.strings = true, maps.maps = true, floats.floats = true;
  CHECK(decode_error(link_of(encoded(canon, ints))).rfind(expected, 0) == 0);     // 1 as uint 8 (cc 01)
  CHECK(decode_error(link_of(encoded(canon, strings))).rfind(expected, 0) == 0);  // "version" as str 8
  CHECK(decode_error(link_of(encoded(canon, maps))).rfind(expected, 0) == 0);     // 5 keys as map 16
  CHECK(decode_error(link_of(encoded(canon, floats))).rfind(expected, 0) == 0);   // 0.5 as float 64
  // A key given twice: the decoder would keep one of the two values.
  std::string twice = encoded(json{{"version", 1}, {"name", "a"}});
  twice[0] = static_cast<char>(0x83);
  twice += encoded("name") + encoded("b");
  CHECK(decode_error(link_of(twice)).rfind(expected, 0) == 0);
  // Anything after the scenario.
  CHECK(decode_error(link_of(encoded(canon) + '\xc0')).rfind("link: corrupt scenario data", 0) == 0);
}

TEST_CASE("links whose base64url is not canonical are refused", "[strict]") {
  json canon = trnsim::scenario_to_json(trnsim::default_scenario());
  while (encoded(canon).size() % 3 == 0) canon["name"] = canon["name"].get<std::string>() + ".";  // leftover bits
  std::string payload = trnsim::base64url_encode(encoded(canon));
  REQUIRE(payload.size() % 4 != 0);
  REQUIRE(trnsim::decode_fragment("#s=1." + payload) == canon);
  // Padding, the standard alphabet's + and /, white space: not in the URL alphabet.
  CHECK(decode_error("#s=1." + payload + std::string((4 - payload.size() % 4) % 4, '=')).rfind("link: invalid character", 0) == 0);
  std::string plus = payload;
  plus[3] = '+';
  CHECK(decode_error("#s=1." + plus) == "link: invalid character at position 3 of the data");
  std::string slash = payload;
  slash[5] = '/';
  CHECK(decode_error("#s=1." + slash) == "link: invalid character at position 5 of the data");
  CHECK(decode_error("#s=1." + payload.substr(0, 8) + "\n" + payload.substr(8)) ==
        "link: invalid character at position 8 of the data");
  // The last character carries bits beyond the data; they must be zero. Setting the lowest
  // one decodes to the same bytes -- a second spelling of the same link.
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string odd = payload;
  odd.back() = alphabet[alphabet.find(odd.back()) | 1];
  REQUIRE(odd != payload);
  CHECK(decode_error("#s=1." + odd) == "link: corrupt data (non-canonical base64 ending)");
  // A length of 4k + 1 characters cannot come from whole bytes.
  CHECK(decode_error("#s=1." + payload.substr(0, 4 * (payload.size() / 4) + 1)).rfind("link: truncated data", 0) == 0);
}

TEST_CASE("a link's scenario is read as strictly as a file", "[strict]") {
  json canon = trnsim::scenario_to_json(trnsim::default_scenario());
  canon["workload"]["economics"]["carbon"] = 1;
  json decoded = trnsim::decode_fragment(trnsim::make_link(canon));  // well-formed link ...
  CHECK(error_of([&] { trnsim::scenario_from_json(decoded); }).rfind("workload.economics.carbon: unknown key", 0) ==
        0);  // ... of a scenario the core refuses
}

}  // namespace unit_strict_link
