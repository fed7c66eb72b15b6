// The Validation panel's table: every row of core/validate (the published figure, its
// source, the model's value, the error, whether it calibrated a default, the note) -- the
// rows `trnsim validate` prints, with its texts (validate::value_text, error_text) --
// filtered and sorted for display. No ImGui (tests/unit/test_ui_view.cpp).
#pragma once
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
// Evaluates every row (what `trnsim validate` does).
ValidationTable validation_table();

// The text of a cell.
std::string cell_text(const validate::Row& row, ValidationColumn column);
// Indices of the rows passing the filter, sorted by the column (numbers as numbers, rows
// not modeled last, ties in file order).
std::vector<std::size_t> validation_order(const std::vector<validate::Row>& rows, const ValidationFilter& filter,
                                          ValidationColumn sort_by, bool ascending);

}  // namespace trnsim::ui
