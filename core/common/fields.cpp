#include "common/fields.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "common/limits.h"

namespace trnsim {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string closest_name(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_d = std::string::npos;
  for (const auto& c : candidates) {
    std::size_t d = edit_distance(word, c);
    if (d < best_d) best_d = d, best = c;
  }
  // Accept up to a third of the word's length in edits (at least 2).
  std::size_t limit = std::max<std::size_t>(2, word.size() / 3);
  return best_d <= limit ? best : std::string();
}

namespace {

// nlohmann's DOM builder behind a depth counter: parsing stops at the first object or
// array nested deeper than the limit. The binary readers recurse once per level, so the
// counter also bounds their stack.
// Well-formed UTF-8 (no overlong forms, surrogates or code points beyond U+10FFFF): what
// nlohmann's text parser accepts, and what dump() needs (it throws on anything else).
bool valid_utf8(const std::string& s) {
  std::size_t i = 0, n = s.size();
  while (i < n) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > n) return false;
    std::uint32_t cp = len == 1 ? c : c & (0x7F >> len);
    for (std::size_t k = 1; k < len; ++k) {
      unsigned char d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    static const std::uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

// It also refuses a key given twice in one object (nlohmann's DOM would keep the last value
// silently), recording its path.
class DepthLimitedSax {
 public:
  // check_strings: for binary formats, whose strings nobody has validated yet.
  DepthLimitedSax(json& result, bool check_strings) : dom_(result, true), check_strings_(check_strings) {}
  bool too_deep() const { return too_deep_; }
  const std::string& bad_value() const { return bad_value_; }
  const std::string& repeated_key() const { return repeated_; }  // path of a key given twice, or ""

  bool null() { return value(), dom_.null(); }
  bool boolean(bool v) { return value(), dom_.boolean(v); }
  bool number_integer(json::number_integer_t v) { return value(), dom_.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return value(), dom_.number_unsigned(v); }
  bool number_float(json::number_float_t v, const json::string_t& s) { return value(), dom_.number_float(v, s); }
  bool string(json::string_t& v) { return value(), text_ok(v) && dom_.string(v); }
  bool binary(json::binary_t& v) {
    if (check_strings_) return bad_value_ = "binary data (not JSON)", false;
    return value(), dom_.binary(v);
  }
  bool start_object(std::size_t n) { return enter(true) && dom_.start_object(n); }
  bool key(json::string_t& k) { return text_ok(k) && unique(k) && dom_.key(k); }
  bool end_object() { return leave(), dom_.end_object(); }
  bool start_array(std::size_t n) { return enter(false) && dom_.start_array(n); }
  bool end_array() { return leave(), dom_.end_array(); }
  template <class Exception>  // the parser passes the concrete type (json::parse_error, ...)
  bool parse_error(std::size_t pos, const std::string& token, const Exception& e) {
    return dom_.parse_error(pos, token, e);  // throws it
  }

 private:
  // One frame per open object or array: an object's keys so far, an array's element index.
  struct Open {
    bool object = false;
    std::set<std::string> keys;
    std::string key;
    std::size_t index = 0;
  };
  bool enter(bool object) {
    if (++depth_ > limits::kMaxJsonDepth) return too_deep_ = true, false;
    open_.push_back(Open{object, {}, {}, 0});
    return true;
  }
  void leave() {
    --depth_;
    open_.pop_back();
    value();
  }
  void value() {  // a value ended: the next element of an enclosing array
    if (!open_.empty() && !open_.back().object) ++open_.back().index;
  }
  bool unique(const std::string& k) {
    Open& o = open_.back();
    o.key = k;
    if (o.keys.insert(k).second) return true;
    std::string p;
    for (std::size_t i = 0; i + 1 < open_.size(); ++i)
      p = open_[i].object ? field_path(p, open_[i].key) : index_path(p, open_[i].index);
    repeated_ = field_path(p, k);
    return false;
  }
  bool text_ok(const std::string& v) {
    if (!check_strings_ || valid_utf8(v)) return true;
    bad_value_ = "a string that is not valid UTF-8";
    return false;
  }
  nlohmann::detail::json_sax_dom_parser<json> dom_;
  bool check_strings_;
  std::size_t depth_ = 0;
  bool too_deep_ = false;
  std::string bad_value_;
  std::vector<Open> open_;
  std::string repeated_;
};

InputError too_deep_error(const std::string& what) {
  return InputError(what, "nested deeper than " + std::to_string(limits::kMaxJsonDepth) + " levels (the limit)");
}

}  // namespace

json parse_msgpack_bounded(const std::string& bytes, const std::string& what) {
  json result;
  DepthLimitedSax sax(result, true);
  json::sax_parse(bytes, &sax, nlohmann::detail::input_format_t::msgpack);
  if (sax.too_deep()) throw too_deep_error(what);
  if (!sax.bad_value().empty()) throw InputError(what, "corrupt scenario data (" + sax.bad_value() + ")");
  if (!sax.repeated_key().empty())
    throw InputError(what, "non-canonical scenario data (the key " + sax.repeated_key() + " is given twice)");
  return result;
}

json parse_json_text(const std::string& text, const std::string& what) {
  try {
    json result;
    DepthLimitedSax sax(result, false);
    json::sax_parse(text, &sax);
    if (sax.too_deep()) throw too_deep_error(what);
    if (!sax.repeated_key().empty()) throw InputError(sax.repeated_key(), "given twice (the keys of an object must be unique)");
    return result;
  } catch (const json::parse_error& e) {
    std::ostringstream msg;
    msg << "not valid JSON at byte " << e.byte;
    std::string detail = e.what();
    auto pos = detail.find("syntax error");
    if (pos != std::string::npos) msg << " (" << detail.substr(pos) << ")";
    throw InputError(what, msg.str());
  } catch (const json::out_of_range& e) {
    // A number beyond a double (1e400): nlohmann reports it as out_of_range 406.
    std::string detail = e.what();
    auto pos = detail.find("number overflow");
    throw InputError(what, "not valid JSON (" + (pos == std::string::npos ? detail : detail.substr(pos)) +
                               ": beyond the range of a double)");
  }
}

std::string field_path(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

std::string index_path(const std::string& parent, std::size_t i) {
  return parent + "[" + std::to_string(i) + "]";
}

static std::string type_name(const json& j) {
  return std::string(j.type_name());
}

ObjectReader::ObjectReader(const json& object, std::string path)
    : object_(object), path_(std::move(path)) {
  if (!object_.is_object())
    throw InputError(path_, "expected an object, got " + type_name(object_));
}

bool ObjectReader::has(const std::string& key) const { return object_.contains(key); }

const json* ObjectReader::optional_raw(const std::string& key) {
  known_.push_back(key);
  auto it = object_.find(key);
  if (it == object_.end()) return nullptr;
  read_.insert(key);
  return &*it;
}

const json& ObjectReader::raw(const std::string& key) {
  const json* j = optional_raw(key);
  if (!j) throw InputError(path(key), "missing (required)");
  return *j;
}

static std::string fmt_num(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

double checked_number(const json& j, const std::string& p, double lo, double hi) {
  if (!j.is_number()) throw InputError(p, "expected a number, got " + type_name(j));
  double v = j.get<double>();
  if (!std::isfinite(v)) throw InputError(p, "must be finite");
  if (v < lo || v > hi)
    throw InputError(p, "must be between " + fmt_num(lo) + " and " + fmt_num(hi) + ", got " + fmt_num(v));
  return v;
}

double ObjectReader::number(const std::string& key, double lo, double hi) {
  return checked_number(raw(key), path(key), lo, hi);
}

double ObjectReader::number(const std::string& key, double def, double lo, double hi) {
  const json* j = optional_raw(key);
  return j ? checked_number(*j, path(key), lo, hi) : def;
}

std::int64_t checked_integer(const json& j, const std::string& p, std::int64_t lo, std::int64_t hi) {
  if (j.is_number_integer() || j.is_number_unsigned()) {
    if (j.is_number_unsigned() && j.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
      throw InputError(p, "too large");
    std::int64_t v = j.get<std::int64_t>();
    if (v < lo || v > hi)
      throw InputError(p, "must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                              ", got " + std::to_string(v));
    return v;
  }
  if (j.is_number_float()) {
    double d = j.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9e15)
      return checked_integer(json(static_cast<std::int64_t>(d)), p, lo, hi);
    throw InputError(p, "expected a whole number, got " + fmt_num(d));
  }
  throw InputError(p, "expected a whole number, got " + type_name(j));
}

Bound at_least(double value, std::string why) {
  return Bound{value, false, Bound::Kind::physical, std::move(why), value};
}
Bound above(double value, std::string why, double stop) {
  return Bound{value, true, Bound::Kind::physical, std::move(why), stop};
}
Bound at_most(double value, std::string why) {
  return Bound{value, false, Bound::Kind::physical, std::move(why), value};
}
Bound below(double value, std::string why, double stop) {
  return Bound{value, true, Bound::Kind::physical, std::move(why), stop};
}
Bound limit(double value, std::string why) { return Bound{value, false, Bound::Kind::limit, std::move(why), value}; }

// A bound or a value as a person reads it: whole numbers whole (16777216, not 1.67772e+07),
// others in the shortest form that reads back to the same double (1.0000000000000002).
static std::string exact_num(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  return json(v).dump();
}

std::string bound_violation(double v, const Bound& lo, const Bound& hi) {
  auto said = [&](const char* relation, const Bound& b) {
    return exact_num(v) + " is " + relation + " " + exact_num(b.value) + " (" + b.why + ")";
  };
  if (v < lo.value) return said("below", lo);
  if (lo.open && v == lo.value) return said("not above", lo);
  if (v > hi.value) return said("above", hi);
  if (hi.open && v == hi.value) return said("not below", hi);
  return "";
}

double checked_number(const json& j, const std::string& p, const Bound& lo, const Bound& hi) {
  const double inf = std::numeric_limits<double>::infinity();
  const double v = checked_number(j, p, -inf, inf);
  const std::string beyond = bound_violation(v, lo, hi);
  if (!beyond.empty()) throw InputError(p, beyond);
  return v;
}

std::int64_t checked_integer(const json& j, const std::string& p, const Bound& lo, const Bound& hi) {
  const std::int64_t v = checked_integer(j, p, INT64_MIN, INT64_MAX);
  const std::string beyond = bound_violation(static_cast<double>(v), lo, hi);
  if (!beyond.empty()) throw InputError(p, beyond);
  return v;
}

std::int64_t ObjectReader::integer(const std::string& key, std::int64_t lo, std::int64_t hi) {
  return checked_integer(raw(key), path(key), lo, hi);
}

std::int64_t ObjectReader::integer(const std::string& key, std::int64_t def, std::int64_t lo, std::int64_t hi) {
  const json* j = optional_raw(key);
  return j ? checked_integer(*j, path(key), lo, hi) : def;
}

bool checked_boolean(const json& j, const std::string& p) {
  if (!j.is_boolean()) throw InputError(p, "expected true or false, got " + type_name(j));
  return j.get<bool>();
}

std::string checked_string(const json& j, const std::string& p) {
  if (!j.is_string()) throw InputError(p, "expected a string, got " + type_name(j));
  return j.get<std::string>();
}

bool ObjectReader::boolean(const std::string& key, bool def) {
  const json* j = optional_raw(key);
  return j ? checked_boolean(*j, path(key)) : def;
}

std::string ObjectReader::string(const std::string& key) { return checked_string(raw(key), path(key)); }

std::string ObjectReader::string(const std::string& key, const std::string& def) {
  const json* j = optional_raw(key);
  return j ? checked_string(*j, path(key)) : def;
}

std::string checked_choice(const std::string& v, const std::string& p,
                                const std::vector<std::string>& allowed) {
  if (std::find(allowed.begin(), allowed.end(), v) != allowed.end()) return v;
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
  std::string hint = closest_name(v, allowed);
  throw InputError(p, "unknown value '" + v + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                          "; one of: " + list);
}

std::string ObjectReader::choice(const std::string& key, const std::vector<std::string>& allowed) {
  return checked_choice(string(key), path(key), allowed);
}

std::string ObjectReader::choice(const std::string& key, const std::string& def,
                                 const std::vector<std::string>& allowed) {
  return checked_choice(string(key, def), path(key), allowed);
}

void throw_unknown_key(const std::string& path, const std::string& key, const std::vector<std::string>& known) {
  std::string hint = closest_name(key, known);
  throw InputError(field_path(path, key), "unknown key" + (hint.empty() ? std::string() : " (did you mean '" + hint + "'?)"));
}

void ObjectReader::finish() const {
  for (auto it = object_.begin(); it != object_.end(); ++it)
    if (!read_.count(it.key())) throw_unknown_key(path_, it.key(), known_);
}

}  // namespace trnsim
