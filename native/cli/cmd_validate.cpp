// `trnsim validate [--pricer P] [--json]`: the model against every published Trainium2/Trainium3
// measurement and claim (core/data/validation/*.json, evaluated by core/validate/), with
// the error of each. The README's validation block and the playground's Validation panel
// show the same table.
#include <ostream>

#include "cli.h"
#include "progress.h"
#include "validate/validate.h"

namespace {

int run_validate(const std::vector<std::string>& raw, trnsim::cli::Io& io) {
  trnsim::cli::Args args(raw, {"pricer"}, {"json"});
  args.expect_positional({});
  trnsim::validate::Options options;
  options.pricer = args.value_or("pricer", "");
  trnsim::cli::Progress progress(io.err, "validate", "rows", 0, true);
  std::vector<trnsim::validate::Row> rows =
      trnsim::validate::rows([&](std::size_t done, std::size_t) { progress.update(done); }, options);
  progress.finish();
  if (args.flag("json")) io.out << trnsim::validate::to_json(rows, options).dump(2) << "\n";
  else io.out << trnsim::validate::to_text(rows, options);
  return 0;
}

}  // namespace

TRNSIM_COMMAND("validate", "model vs every published Trainium measurement and AWS claim, with errors",
               "Usage: trnsim validate [--pricer roofline|engine] [--json]\n"
               "  --pricer     price every row's scenario with this pricer (workload.pricer)\n"
               "  Prices each published Trainium2 measurement (PERF.md rows 1-14) and each Trn3-vs-Trn2 claim\n"
               "  with the model and prints published, model and error. The rows are data\n"
               "  (core/data/validation/*.json: figure, source, the scenario or collective that reproduces\n"
               "  it, calibration flag, note). Rows the model does not cover (speculative decoding, other\n"
               "  clouds) say so.\n"
               "Exit codes: 0, 2 for a malformed validation row.\n",
               run_validate);
