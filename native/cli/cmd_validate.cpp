// `trnsim validate [--pricer P] [--json]`: the model against every published Trainium2/Trainium3
// measurement and claim (core/data/validation/*.json, evaluated by core/validate/), with
// the error of each. The README's validation block and the playground's Validation panel
// show the same table. `--predictions`: the recorded predictions (predictions/*.json) beside
// what the model says now; `--record DRAFT --date D --commit C`: a draft's figures to record.
#include <ostream>

#include "cli.h"
#include "progress.h"
#include "validate/predictions.h"
#include "validate/validate.h"

namespace {

int run_validate(const std::vector<std::string>& raw, trnsim::cli::Io& io) {
  trnsim::cli::Args args(raw, {"pricer", "record", "date", "commit"}, {"json", "predictions"});
  args.expect_positional({});
  trnsim::validate::Options options;
  options.pricer = args.value_or("pricer", "");
  if (args.value("record")) {
    const std::string path = args.value_or("record", "");
    if (!args.value("date") || !args.value("commit"))
      throw trnsim::InputError("--record", "needs --date YYYY-MM-DD and --commit SHA (scripts/predict.sh passes them)");
    const trnsim::json draft = trnsim::parse_json_text(trnsim::cli::read_file(path, io), path);
    io.out << trnsim::validate::record(draft, path, args.value_or("date", ""), args.value_or("commit", "")).dump(1)
           << "\n";
    return 0;
  }
  if (args.flag("predictions")) {
    trnsim::cli::Progress progress(io.err, "predictions", "files", 0, true);
    auto rows = trnsim::validate::predictions([&](std::size_t done, std::size_t) { progress.update(done); }, options);
    progress.finish();
    if (args.flag("json")) io.out << trnsim::validate::predictions_to_json(rows).dump(2) << "\n";
    else io.out << trnsim::validate::predictions_to_text(rows);
    return 0;
  }
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
               "       trnsim validate --predictions [--json]\n"
               "       trnsim validate --record DRAFT.json --date YYYY-MM-DD --commit SHA\n"
               "  --pricer       price every row's scenario with this pricer (workload.pricer)\n"
               "  --predictions  the recorded predictions (predictions/*.json, built in): each figure as\n"
               "                 recorded (date, commit) beside what this build's model says now\n"
               "  --record       fill a draft prediction file with this model's figures, the date and the\n"
               "                 commit, and print it (scripts/predict.sh records one into predictions/)\n"
               "  Prices each published Trainium2 measurement (PERF.md rows 1-14) and each Trn3-vs-Trn2 claim\n"
               "  with the model and prints published, model and error. The rows are data\n"
               "  (core/data/validation/*.json: figure, source, the scenario or collective that reproduces\n"
               "  it, calibration flag, note). Rows the model does not cover (speculative decoding, other\n"
               "  clouds) say so.\n"
               "Exit codes: 0, 2 for a malformed validation row.\n",
               run_validate);
