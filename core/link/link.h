// Playground links: the whole scenario in the URL fragment, so every view is a link.
//
//   http://127.0.0.1:8080/#s=1.<base64url(MessagePack(canonical scenario JSON))>
//
// "1." is the codec version; MessagePack (nlohmann's, no extra dependency) keeps the
// fragment compact and the round trip lossless: decode(encode(s)) is s's canonical
// JSON, and encode(decode(link)) == link. One codec, used by `trnsim link`, the
// playground page and its tests. Decoding never trusts its input: a fragment that is
// not a trnsim link, is oversized, has bad or non-canonical base64 (padding, stray
// characters, non-zero trailing bits), corrupt MessagePack or MessagePack in any form but
// the one the encoder writes (a longer integer, string or map header, a float64 that fits a
// float32, a key given twice) gets an InputError naming "link" and the problem; a decoded
// scenario is then validated like any scenario file (errors name the field).
#pragma once
#include <string>

#include "common/fields.h"
#include "common/limits.h"

namespace trnsim {

constexpr const char* kDefaultLinkBase = "http://127.0.0.1:8080/";
using limits::kMaxLinkFragmentBytes;  // common/limits.h

std::string base64url_encode(const std::string& bytes);
// Throws InputError("link", ...) naming the offending position.
std::string base64url_decode(const std::string& text);

// "s=1.<payload>" for a scenario JSON value (the fragment without '#').
std::string encode_fragment(const json& scenario_json);
// Accepts a full URL, "#s=1...." or "s=1....". Returns the decoded JSON value (not yet
// validated as a scenario).
json decode_fragment(const std::string& link);
// base + "#" + fragment.
std::string make_link(const json& scenario_json, const std::string& base = kDefaultLinkBase);

}  // namespace trnsim
