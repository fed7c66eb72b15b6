// Streaming trace readers (traces.h).
#include "serve/traces.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

#include "common/error.h"
#include "common/fields.h"
#include "common/format.h"

namespace trnsim::serve {

namespace {

constexpr int kMaxTokens = 1 << 24;
constexpr std::uint64_t kTokenIdsNs = 0x544f4b454e494453ull;
constexpr std::uint64_t kMooncakeNs = 0x4d4f4f4e43414b45ull;

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r\"");
  if (a == std::string::npos) return "";
  const auto b = s.find_last_not_of(" \t\r\"");
  return s.substr(a, b - a + 1);
}

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const auto comma = line.find(',', start);
    out.push_back(trim(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

// Full prompt blocks hashed from token ids, each hash covering every token before it.
std::vector<std::uint64_t> hash_token_ids(const json& ids, int block_tokens, const std::string& path) {
  std::vector<std::uint64_t> out;
  std::uint64_t h = kTokenIdsNs, fold = 0;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const std::int64_t id = checked_integer(ids[i], index_path(path, i), 0, INT64_MAX);
    fold = fold * 0x100000001B3ull + static_cast<std::uint64_t>(id) + 1;
    if ((i + 1) % static_cast<std::size_t>(block_tokens) == 0) {
      h = block_key(h, fold);
      out.push_back(h);
      fold = 0;
    }
  }
  return out;
}

class TraceSource : public Source {
 public:
  TraceSource(std::unique_ptr<std::istream> in, const Trace& t, std::string what, int block_tokens)
      : in_(std::move(in)), trace_(t), what_(std::move(what)), block_tokens_(block_tokens), buf_(kMaxTraceLineBytes + 2) {
    format_ = t.format;
    std::string first;
    if (!read_line(first)) throw InputError(what_, "the trace is empty");
    if (format_ == "auto") format_ = detect(first);
    if (format_ == "vidur" || format_ == "splitwise") read_header(first);
    else pending_ = first, has_pending_ = true;
  }

  bool next(Chain& c) override {
    std::string line;
    for (;;) {
      if (has_pending_) {
        line.swap(pending_);
        has_pending_ = false;
      } else if (!read_line(line)) {
        return false;
      }
      if (trim(line).empty()) continue;
      break;
    }
    if (count_ >= trace_.max_requests)
      throw InputError("serve.trace.max_requests",
                       what_ + " has more than " + std::to_string(trace_.max_requests) + " requests (line " +
                           std::to_string(line_) + "); cut the trace or raise serve.trace.max_requests (at most " +
                           "10,000,000: every request's figures are kept for the percentiles)");
    c = Chain();
    c.id = count_;
    parse(line, c);
    if (c.arrival_s < last_arrival_)
      throw InputError(where(time_column()), "arrives at " + fmt::general(c.arrival_s / trace_.time_scale, 9) +
                                                 " s, before the line before's " +
                                                 fmt::general(last_arrival_ / trace_.time_scale, 9) +
                                                 " s; sort the trace by arrival");
    last_arrival_ = c.arrival_s;
    ++count_;
    return true;
  }

  std::string describe() const override { return what_ + " (" + format_ + " trace, " + std::to_string(count_) + " read)"; }
  std::vector<std::string> ignored() const override { return ignored_; }

 private:
  std::string where(const std::string& field) const {
    return what_ + " line " + std::to_string(line_) + (field.empty() ? "" : ", " + field);
  }

  bool read_line(std::string& out) {
    if (!in_->getline(buf_.data(), static_cast<std::streamsize>(buf_.size()))) {
      if (in_->eof() && in_->gcount() > 0) {
        ++line_;
        out.assign(buf_.data(), static_cast<std::size_t>(in_->gcount()));
        return true;
      }
      if (!in_->eof() && in_->gcount() >= static_cast<std::streamsize>(buf_.size()) - 1)
        throw InputError(what_ + " line " + std::to_string(line_ + 1),
                         "longer than " + std::to_string(kMaxTraceLineBytes >> 20) + " MiB");
      if (!in_->eof()) throw InputError(what_, "cannot read the trace");
      return false;
    }
    ++line_;
    out.assign(buf_.data());
    return true;
  }

  std::string detect(const std::string& first) const {
    const std::string t = trim(first);
    if (!t.empty() && t[0] == '{') {
      json j = parse_json_text(t, what_ + " line 1");
      if (j.contains("sub_requests") || j.contains("input_toks")) return "sessions";
      if (j.contains("hash_ids") || j.contains("input_length")) return "mooncake";
      throw InputError(what_ + " line 1", "a JSON line of no known trace format (mooncake: timestamp, input_length, "
                                          "output_length, hash_ids; sessions: input_toks / sub_requests)");
    }
    const auto cols = split_csv(t);
    auto has = [&](const char* c) { return std::find(cols.begin(), cols.end(), c) != cols.end(); };
    if (has("arrived_at")) return "vidur";
    if (has("arrival_timestamp")) return "splitwise";
    throw InputError(what_ + " line 1", "not a known trace header (vidur: arrived_at,num_prefill_tokens,"
                                        "num_decode_tokens; splitwise: ...,arrival_timestamp,...,prompt_size,"
                                        "token_size) and not a JSON line");
  }

  std::vector<std::string> csv_columns() const {
    if (format_ == "vidur") return {"arrived_at", "num_prefill_tokens", "num_decode_tokens"};
    return {"arrival_timestamp", "prompt_size", "token_size"};
  }

  std::string time_column() const {
    if (format_ == "vidur") return "arrived_at";
    if (format_ == "splitwise") return "arrival_timestamp";
    if (format_ == "mooncake") return "timestamp";
    return "arrival_time_ns";
  }

  void read_header(const std::string& line) {
    const auto cols = split_csv(line);
    for (std::size_t i = 0; i < cols.size(); ++i) index_[cols[i]] = i;
    for (const auto& need : csv_columns())
      if (!index_.count(need))
        throw InputError(where(""), "the " + format_ + " header has no column '" + need + "' (columns: " + line + ")");
    width_ = cols.size();
    const auto used = csv_columns();
    for (const auto& c : cols)
      if (std::find(used.begin(), used.end(), c) == used.end()) ignored_.push_back(c);
  }

  double csv_number(const std::vector<std::string>& cells, const std::string& col, double lo, double hi, bool whole) {
    const std::string& s = cells[index_.at(col)];
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || !std::isfinite(v))
      throw InputError(where(col), "expected a number, got '" + s + "'");
    if (whole && v != std::floor(v)) throw InputError(where(col), "expected a whole number, got '" + s + "'");
    if (v < lo || v > hi)
      throw InputError(where(col), "must be between " + std::to_string(static_cast<long long>(lo)) + " and " +
                                       std::to_string(static_cast<long long>(hi)) + ", got '" + s + "'");
    return v;
  }

  void parse(const std::string& line, Chain& c) {
    if (format_ == "vidur" || format_ == "splitwise") return parse_csv(line, c);
    json j = parse_json_text(line, where(""));
    if (format_ == "mooncake") return parse_mooncake(j, c);
    return parse_sessions(j, c);
  }

  void parse_csv(const std::string& line, Chain& c) {
    const auto cells = split_csv(line);
    if (cells.size() != width_)
      throw InputError(where(""), "expected " + std::to_string(width_) + " columns like the header, got " +
                                      std::to_string(cells.size()));
    const auto cols = csv_columns();
    c.arrival_s = csv_number(cells, cols[0], 0, 1e12, false) * trace_.time_scale;
    Call call;
    call.input_tokens = static_cast<int>(csv_number(cells, cols[1], 1, kMaxTokens, true));
    call.output_tokens = static_cast<int>(csv_number(cells, cols[2], 1, kMaxTokens, true));
    c.calls.push_back(std::move(call));
  }

  void parse_mooncake(const json& j, Chain& c) {
    ObjectReader r(j, where(""));
    c.arrival_s = r.number("timestamp", 0, 1e15) / 1e3 * trace_.time_scale;
    Call call;
    call.input_tokens = static_cast<int>(r.integer("input_length", 1, kMaxTokens));
    call.output_tokens = static_cast<int>(r.integer("output_length", 1, kMaxTokens));
    const json& ids = r.raw("hash_ids");
    if (!ids.is_array()) throw InputError(r.path("hash_ids"), "expected an array of block hash ids");
    const std::size_t full = static_cast<std::size_t>(call.input_tokens / kMooncakeBlockTokens);
    for (std::size_t i = 0; i < ids.size() && i < full; ++i)
      call.block_hashes.push_back(
          block_key(kMooncakeNs, static_cast<std::uint64_t>(checked_integer(ids[i], index_path(r.path("hash_ids"), i), 0, INT64_MAX))));
    call.hash_block_tokens = kMooncakeBlockTokens;
    r.finish();
    c.calls.push_back(std::move(call));
  }

  Call sessions_call(ObjectReader& r, bool in_session) {
    Call call;
    call.input_tokens = static_cast<int>(r.integer("input_toks", 1, kMaxTokens));
    call.output_tokens = static_cast<int>(r.integer("output_toks", 1, kMaxTokens));
    if (const json* ids = r.optional_raw("input_tok_ids")) {
      if (!ids->is_array() || ids->size() != static_cast<std::size_t>(call.input_tokens))
        throw InputError(r.path("input_tok_ids"), "expected an array of input_toks token ids");
      call.block_hashes = hash_token_ids(*ids, block_tokens_, r.path("input_tok_ids"));
      call.hash_block_tokens = block_tokens_;
    }
    r.ignore("output_tok_ids");  // the decode's cost does not depend on which tokens
    if (in_session) call.pause_after_s = r.number("tool_duration_ns", 0, 1e18) / 1e9 * trace_.time_scale;
    return call;
  }

  void parse_sessions(const json& j, Chain& c) {
    ObjectReader r(j, where(""));
    c.arrival_s = r.number("arrival_time_ns", 0, 1e18) / 1e9 * trace_.time_scale;
    if (!r.has("sub_requests")) {
      c.calls.push_back(sessions_call(r, false));
      r.finish();
      return;
    }
    c.session = true;
    const std::string sid = r.string("session_id");
    const json& subs = r.raw("sub_requests");
    r.finish();
    if (!subs.is_array() || subs.empty()) throw InputError(r.path("sub_requests"), "expected a non-empty array");
    // The conversation is one stream: every call's prompt extends the previous one's prompt and output.
    std::uint64_t ns = kTokenIdsNs;
    for (char ch : sid) ns = block_key(ns, static_cast<unsigned char>(ch));
    ns = block_key(ns, static_cast<std::uint64_t>(line_));
    for (std::size_t i = 0; i < subs.size(); ++i) {
      ObjectReader s(subs[i], index_path(r.path("sub_requests"), i));
      Call call = sessions_call(s, true);
      s.finish();
      if (call.block_hashes.empty()) {
        call.segments.push_back({call.input_tokens, ns});
        call.output_ns = ns;
      }
      call.turn = static_cast<int>(i) + 1;
      c.calls.push_back(std::move(call));
    }
    c.calls.back().pause_after_s = 0;
  }

  std::unique_ptr<std::istream> in_;
  Trace trace_;
  std::string what_, format_;
  int block_tokens_;
  std::vector<char> buf_;
  long line_ = 0;
  std::string pending_;
  bool has_pending_ = false;
  std::map<std::string, std::size_t> index_;
  std::size_t width_ = 0;
  std::vector<std::string> ignored_;
  std::int64_t count_ = 0;
  double last_arrival_ = 0;
};

}  // namespace

const std::vector<std::string>& trace_format_names() {
  static const std::vector<std::string> v = {"auto", "vidur", "splitwise", "mooncake", "sessions"};
  return v;
}

std::unique_ptr<Source> trace_source(std::unique_ptr<std::istream> in, const Trace& trace, const std::string& what,
                                     int hash_block_tokens) {
  return std::make_unique<TraceSource>(std::move(in), trace, what, hash_block_tokens);
}

}  // namespace trnsim::serve
