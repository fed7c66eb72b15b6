#include "link/link.h"

#include "common/input_file.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace trnsim {

static const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string base64url_encode(const std::string& bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    std::uint32_t v = (std::uint8_t(bytes[i]) << 16) | (std::uint8_t(bytes[i + 1]) << 8) | std::uint8_t(bytes[i + 2]);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  std::size_t rest = bytes.size() - i;
  if (rest == 1) {
    std::uint32_t v = std::uint8_t(bytes[i]) << 16;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
  } else if (rest == 2) {
    std::uint32_t v = (std::uint8_t(bytes[i]) << 16) | (std::uint8_t(bytes[i + 1]) << 8);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
  }
  return out;  // unpadded, as is usual in URLs
}

static int sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

std::string base64url_decode(const std::string& text) {
  if (text.size() % 4 == 1) throw InputError("link", "truncated data (base64 length " + std::to_string(text.size()) + ")");
  std::string out;
  out.reserve(text.size() * 3 / 4);
  std::uint32_t acc = 0;
  int bits = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    int v = sextet(text[i]);
    if (v < 0) throw InputError("link", "invalid character at position " + std::to_string(i) + " of the data");
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  // Leftover bits must be zero, or the text was not produced by the encoder.
  if (bits > 0 && (acc & ((1u << bits) - 1)) != 0) throw InputError("link", "corrupt data (non-canonical base64 ending)");
  return out;
}

static const std::string kPrefix = "s=1.";

std::string encode_fragment(const json& scenario_json) {
  std::vector<std::uint8_t> packed = json::to_msgpack(scenario_json);
  return kPrefix + base64url_encode(std::string(packed.begin(), packed.end()));
}

json decode_fragment(const std::string& link) {
  std::string frag = link;
  auto hash = frag.find('#');
  if (hash != std::string::npos) frag = frag.substr(hash + 1);
  if (frag.size() > kMaxLinkFragmentBytes)
    throw InputError("link", "oversized fragment (" + std::to_string(frag.size()) + " bytes, more than the limit of " +
                                 byte_size_text(kMaxLinkFragmentBytes) + ")");
  if (frag.compare(0, 2, "s=") != 0)
    throw InputError("link", "not a trnsim scenario link (expected a fragment starting with '#s=1.')");
  if (frag.compare(0, kPrefix.size(), kPrefix) != 0) {
    auto dot = frag.find('.');
    throw InputError("link", "unsupported link version '" + frag.substr(2, dot == std::string::npos ? 8 : dot - 2) +
                                 "' (this trnsim reads version 1)");
  }
  std::string bytes = base64url_decode(frag.substr(kPrefix.size()));
  json j;
  try {
    j = parse_msgpack_bounded(bytes, "link");
  } catch (const json::exception&) {
    throw InputError("link", "corrupt scenario data (the link was truncated or altered)");
  }
  if (!j.is_object()) throw InputError("link", "corrupt scenario data (not an object)");
  // One link per scenario: the encoder writes the shortest MessagePack form of every value
  // (fixint, fixstr, float32 when exact, ...) and no key twice, so anything else -- a
  // longer integer or string header, a float64 that fits a float32, a repeated key -- was
  // not written by trnsim and would break encode(decode(link)) == link.
  std::vector<std::uint8_t> canonical = json::to_msgpack(j);
  if (canonical.size() != bytes.size() || !std::equal(canonical.begin(), canonical.end(), bytes.begin(),
                                                      [](std::uint8_t a, char b) { return a == static_cast<std::uint8_t>(b); }))
    throw InputError("link", "non-canonical scenario data (not the encoding trnsim writes: a longer form of a value, "
                             "or a key given twice)");
  return j;
}

std::string make_link(const json& scenario_json, const std::string& base) {
  std::string b = base;
  auto hash = b.find('#');
  if (hash != std::string::npos) b = b.substr(0, hash);
  return b + "#" + encode_fragment(scenario_json);
}

}  // namespace trnsim
