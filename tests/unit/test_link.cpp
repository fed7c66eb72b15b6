// The link codec: lossless, compact, and strict about what it accepts.
#include <catch2/catch.hpp>

#include "link/link.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_link {

using trnsim::json;

static std::string link_error(const std::string& link) {
  try {
    trnsim::decode_fragment(link);
  } catch (const trnsim::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST_CASE("base64url round trips every length and byte value") {
  std::string bytes;
  for (int n = 0; n < 300; ++n) {
    REQUIRE(trnsim::base64url_decode(trnsim::base64url_encode(bytes)) == bytes);
    bytes += static_cast<char>((n * 37 + 11) & 0xFF);
  }
  CHECK(trnsim::base64url_encode("\xfb\xff") == "-_8");
}

TEST_CASE("a scenario round trips through a link, and a link through a scenario") {
  json s = json::parse(R"({"version":1,"name":"x \u00e9 #&?","system":"trn3-gen2-ultraserver",
                           "workload":{"batch":8,"ratio":0.1,"nested":[1,2.5,"a",null,true]}})");
  std::string link = trnsim::make_link(s, "https://example.org/play/index.html");
  CHECK(link.rfind("https://example.org/play/index.html#s=1.", 0) == 0);
  json back = trnsim::decode_fragment(link);
  CHECK(back == s);
  CHECK(back.dump() == s.dump());  // key order survives too
  CHECK(trnsim::make_link(back, "https://example.org/play/index.html") == link);
  CHECK(trnsim::decode_fragment("#" + trnsim::encode_fragment(s)) == s);
  CHECK(trnsim::decode_fragment(trnsim::encode_fragment(s)) == s);
}

TEST_CASE("bad links are rejected with a message naming the problem") {
  json s = json::parse(R"({"version":1,"name":"n"})");
  std::string frag = trnsim::encode_fragment(s);
  CHECK(link_error("http://x/#foo=bar") == "link: not a trnsim scenario link (expected a fragment starting with '#s=1.')");
  CHECK(link_error("#s=9.AAAA") == "link: unsupported link version '9' (this trnsim reads version 1)");
  CHECK(link_error("#s=1.ab$d") == "link: invalid character at position 2 of the data");
  CHECK(link_error("#" + frag.substr(0, frag.size() - 6)).find("link: ") == 0);
  CHECK(link_error("#s=1." + trnsim::base64url_encode("\x93\x01")) ==
        "link: corrupt scenario data (the link was truncated or altered)");
  CHECK(link_error("#s=1." + trnsim::base64url_encode("\x93\x01\x02\x03")) == "link: corrupt scenario data (not an object)");
  CHECK(link_error("#s=1." + std::string(300 * 1024, 'A')).find("link: oversized fragment") == 0);
  // Every truncation of a valid link fails cleanly (never crashes, never half-decodes).
  for (std::size_t n = 0; n < frag.size(); ++n) {
    std::string cut = "#" + frag.substr(0, n);
    try {
      json j = trnsim::decode_fragment(cut);
      CHECK(j.is_object());  // a shorter prefix can only decode if it is itself an object
    } catch (const trnsim::InputError&) {
    }
  }
}

}  // namespace unit_link
