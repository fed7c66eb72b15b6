// Readers of public request-trace formats (each named with the repository that defines it),
// streaming: a trace is read line by line while the simulation runs, so only the requests in
// flight are in memory; a trace longer than serve.trace.max_requests is refused with the line
// where it went over. Errors name the trace, the line and the field or column.
//   vidur      CSV with a header: arrived_at (s), num_prefill_tokens, num_decode_tokens
//              (microsoft/vidur trace_replay); other columns are ignored and reported.
//   splitwise  CSV with a header: arrival_timestamp (s), prompt_size, token_size
//              (Mutinifni/splitwise-sim); request_id, request_type, application_id, batch_size ignored.
//   mooncake   JSONL {"timestamp" (ms), "input_length", "output_length", "hash_ids": [...]}:
//              one hash id per 512-token prompt block (kvcache-ai/Mooncake FAST25-release).
//   sessions   JSONL of LLMServingSim (casys-kaist/LLMServingSim docs/workloads/jsonl-format.md):
//              flat lines {"input_toks", "output_toks", "arrival_time_ns"} or sessions
//              {"session_id", "arrival_time_ns", "sub_requests": [{"input_toks", "output_toks",
//              "tool_duration_ns"}]}; optional "input_tok_ids" / "output_tok_ids" (token ids:
//              prompt blocks are hashed from them). A session's calls re-send the conversation,
//              so each call's prompt is taken to extend the previous call's prompt and output.
//   auto       picks one of the above from the first line.
// Arrival times must not decrease (sort the trace first). NOT read: Azure LLM inference traces
// (their CSV columns are TIMESTAMP, ContextTokens, GeneratedTokens: use splitwise's reader after
// renaming, or convert).
#pragma once
#include <istream>
#include <memory>
#include <string>
#include <vector>

#include "serve/requests.h"

namespace trnsim::serve {

constexpr int kMooncakeBlockTokens = 512;
constexpr std::size_t kMaxTraceLineBytes = 4u << 20;

const std::vector<std::string>& trace_format_names();  // auto, vidur, splitwise, mooncake, sessions

// A streaming source over `in` (owned). `what` names the trace in errors ("t.csv",
// "serve.trace.text"); `hash_block_tokens` is the block size token ids are hashed in.
std::unique_ptr<Source> trace_source(std::unique_ptr<std::istream> in, const Trace& trace, const std::string& what,
                                     int hash_block_tokens);

}  // namespace trnsim::serve
