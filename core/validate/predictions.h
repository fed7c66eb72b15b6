// Pre-registered predictions: figures the model gave, on a recorded date and commit, for
// configurations with no published result yet (predictions/*.json, embedded like the
// validation rows). A recorded prediction is never edited; a new model version records a new
// dated file. `trnsim validate --predictions` prints each recorded figure beside what the model
// says now; when a measurement appears, the row moves into core/data/validation with its
// prediction kept in the row's note.
//
// A prediction file:
//   {"format": "trnsim-prediction-1", "date": "2026-12-03", "commit": "<git commit>",
//    "title": "...", "predictions": [
//      {"id": "P1", "figure": "...", "unit": "ms", "predicted": 12.3, "note": "...",
//       "compute": <a validation computation: validate.h>}, ...]}
// A draft is the same without "date", "commit" and the "predicted" values: `trnsim validate
// --record DRAFT` fills them (scripts/predict.sh names the commit and writes the file).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "common/fields.h"
#include "validate/validate.h"

namespace trnsim::validate {

struct Prediction {
  std::string file;    // predictions/<file>.json
  std::string date;    // when it was recorded (YYYY-MM-DD)
  std::string commit;  // the commit whose model made it
  std::string id;
  std::string figure;
  std::string unit;
  std::string note;
  double recorded = 0;  // in `unit`
  double now = 0;       // the model of this build, in `unit`
  double change() const { return (now - recorded) / recorded; }
};

// Every embedded prediction file's rows, each computed again (InputError naming file and row
// for a malformed one); `progress(done, total)` after each row when given.
std::vector<Prediction> predictions(const std::function<void(std::size_t, std::size_t)>& progress = {},
                                    const Options& options = {});
// The same for one file's text (`what` names it in errors).
std::vector<Prediction> predictions_of(const std::string& text, const std::string& what, const Options& options = {});
// A draft filled with the model's figures, the date and the commit: the file to record.
json record(const json& draft, const std::string& what, const std::string& date, const std::string& commit);

json predictions_to_json(const std::vector<Prediction>& rows);
std::string predictions_to_text(const std::vector<Prediction>& rows);  // what `trnsim validate --predictions` prints

}  // namespace trnsim::validate
