// The Validation panel's table: every row of core/validate (the published figure, its
// source, the model's value, the error, whether it calibrated a default, the note) -- the
// rows `trnsim validate` prints, with its texts (validate::value_text, error_text) --
// filtered and sorted for display. No ImGui (tests/unit/test_ui_view.cpp).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "validate/validate.h"

namespace trnsim::ui {

enum class ValidationColumn { id, figure, published, model, error, source, calibration, note };
// The columns in display order with their headers.
struct ValidationColumnInfo {
  ValidationColumn column;
  const char* header;
};
const std::vector<ValidationColumnInfo>& validation_columns();

struct ValidationFilter {
  std::string text;          // case-insensitive, in id, figure, source and note ("" = all)
  bool calibration_only = false;
  bool modeled_only = false;
};

struct ValidationTable {
  std::vector<validate::Row> rows;  // validate::rows(), file order
  validate::Summary summary;
  std::string error;                // a malformed data file (InputError text)
};
// The panel's evaluation a row at a time (validate::Run), a time budget per frame, so a long
// run -- the engine pricer's takes seconds -- leaves the page responsive. The pricer is
// `trnsim validate --pricer`'s: "" prices each row as its scenario says (the roofline), a name
// of price::pricer_names() prices every row with that pricer.
class ValidationProgress {
 public:
  void start(const std::string& pricer);  // (re)starts; a bad name is the table's error
  // Evaluates rows for up to `budget_s` seconds of wall time (at least one row); true when
  // the table changed. Nothing once done or failed.
  bool advance(double budget_s);
  bool started() const { return started_; }
  bool done() const { return started_ && (!run_ || run_->done()); }
  std::size_t evaluated() const { return table_.rows.size(); }
  std::size_t total() const { return run_ ? run_->total() : table_.rows.size(); }
  const std::string& pricer() const { return pricer_; }
  const ValidationTable& table() const { return table_; }  // the rows so far and their summary
  // What `trnsim validate --json [--pricer P]` prints for the rows so far, with "done",
  // "evaluated" and "total" (the page's window.trnsim.panelState("Validation")).
  json to_json() const;

 private:
  bool started_ = false;
  std::string pricer_;
  std::unique_ptr<validate::Run> run_;
  ValidationTable table_;
};

// The text of a cell.
std::string cell_text(const validate::Row& row, ValidationColumn column);
// Indices of the rows passing the filter, sorted by the column (numbers as numbers, rows
// not modeled last, ties in file order).
std::vector<std::size_t> validation_order(const std::vector<validate::Row>& rows, const ValidationFilter& filter,
                                          ValidationColumn sort_by, bool ascending);

}  // namespace trnsim::ui
