// Fuzz target: the serving trace readers (`serve.trace.file` / `serve.trace.text`, core/serve/
// traces.h): the input read as a trace by every reader (auto and each format), streamed to
// its end as the simulator does, within a request limit. Properties: every chain the reader
// yields arrives no earlier than the one before (the readers refuse decreasing arrivals) and
// every call asks for at least one prompt and one output token.
// fuzz-seeds: tests/fuzz/seeds/serve_trace/*
#include <sstream>

#include "../fuzz.h"
#include "serve/traces.h"

using namespace trnsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::text(data, size);
  for (const std::string& format : serve::trace_format_names()) {
    serve::Trace t;
    t.format = format;
    t.max_requests = 10000;
    fuzz::accepts("trace_source", [&] {
      auto src = serve::trace_source(std::make_unique<std::istringstream>(text), t, "fuzz.trace", 16);
      serve::Chain c;
      double last = -1e300;
      while (src->next(c)) {
        fuzz::check(c.arrival_s >= last, format + ": a chain arrived before the previous one");
        last = c.arrival_s;
        fuzz::check(!c.calls.empty(), format + ": a chain without calls");
        for (const auto& call : c.calls)
          fuzz::check(call.input_tokens > 0 && call.output_tokens > 0, format + ": a call without tokens");
        c = serve::Chain{};
      }
      (void)src->describe();
      (void)src->ignored();
    });
  }
  return 0;
}
