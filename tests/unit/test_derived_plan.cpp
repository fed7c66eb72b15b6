// Derived checks on the plan itself (core/plan/plan.h), before any pricing: every operator of
// a pass -- FLOPs, HBM bytes, kernels, the collective request with its stride, and the GEMM
// and attention shapes an engine-level pricer times -- equals the derivation of
// test_derived_reference.h; the bytes held, the decode micro-batching, the training
// exchanges (with their groups and strides) and the FLOPs MFU counts likewise. Where the
// report tests (test_derived_dense/moe/mla/sliding/schedule) see only what the JSON shows,
// these see the request's stride and the shapes too.
#include <catch2/catch.hpp>

#include "plan/plan.h"
#include "test_derived_reference.h"
#include "workload/spec.h"

// A namespace per file: the unit tests build in unity batches (tests/CMakeLists.txt).
namespace unit_derived_plan {

using namespace derived;
using trnsim::json;
namespace plan = trnsim::plan;
namespace model = trnsim::model;

namespace {

struct Planned {
  model::ModelConfig m;
  plan::Dtypes dt;
  plan::Placement pl;
  plan::Layout L;
  plan::Context ctx() const { return plan::Context{m, dt, pl}; }
};

Planned planned(const Arch& a, const Placement& p) {
  Planned x;
  x.m = model::import_hf_config(model::bundled_model_json(a.name, "m"), "m", a.name);
  x.dt.matmul = p.act, x.dt.weights = p.weights, x.dt.attention_weights = p.attn_weights, x.dt.kv_cache = p.kv;
  x.dt.ab = bytes_of(p.act), x.dt.wb = bytes_of(p.weights), x.dt.awb = bytes_of(p.attn_weights), x.dt.kvb = bytes_of(p.kv);
  x.pl = plan::make_placement(x.m, static_cast<int>(p.tp), static_cast<int>(p.pp), static_cast<int>(p.dp), static_cast<int>(p.ep));
  x.L = plan::make_layout(x.m, static_cast<int>(p.pp));
  return x;
}

void check_plan_op(const plan::Operator& o, const Op& want) {
  INFO("operator " << want.name);
  CHECK(o.name == want.name);
  CHECK(o.flops == exact(want.flops));
  CHECK(o.hbm_bytes == exact(want.hbm));
  if (!want.coll.empty()) {
    CHECK(o.kind == plan::OpKind::collective);
    CHECK(o.collective.op == want.coll);
    CHECK(o.collective.bytes == exact(want.coll_bytes));
    CHECK(o.collective.ranks == want.ranks);
    CHECK(o.collective.stride == want.stride);
    return;
  }
  CHECK(o.kernels == want.kernels);
  if (want.flops > 0) CHECK(o.dtype == want.dtype);
  if (o.kind == plan::OpKind::matmul) {
    CHECK(o.m == exact(want.m));
    CHECK(o.k == exact(want.k));
    CHECK(o.n == exact(want.n));
    CHECK(o.gemms == exact(want.gemms));
  }
  if (o.kind == plan::OpKind::attention) {
    CHECK(o.seq_q == exact(want.seq_q));
    CHECK(o.seq_kv == exact(want.seq_kv));
    CHECK(o.head_dim == want.head_dim);
    CHECK(o.value_dim == want.value_dim);
    CHECK(o.heads == exact(want.heads));
    CHECK(o.causal == want.causal);
  }
}

void check_ops(const std::vector<plan::Operator>& got, const std::vector<Op>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) check_plan_op(got[i], want[i]);
}

// Every operator of a planned pass, per layer type, in execution order.
void check_pass_ops(const Planned& x, const plan::PassOps& ops, const Arch& a, const Placement& p, const Pass& s,
                    double logit_tokens) {
  REQUIRE(ops.per_type.size() == x.L.type_names.size());
  for (std::size_t t = 0; t < x.L.type_names.size(); ++t) {
    INFO("layer type " << x.L.type_names[t]);
    check_ops(ops.per_type[t], layer_ops(a, p, s, x.L.type_moe[t], x.L.type_sliding[t]));
  }
  check_ops(ops.first, first_stage_ops(a, s));
  check_ops(ops.last, last_stage_ops(a, p, logit_tokens));
  if (p.pp > 1)
    check_ops(ops.boundary, {coll("pp.send_activations", "permute", s.T() * a.d * kResidualBytes, p.pp, p.tp * p.dp)});
  else
    CHECK(ops.boundary.empty());
}

double item(const std::vector<plan::MemoryItem>& items, const std::string& name) {
  for (const auto& i : items)
    if (i.name == name) return i.bytes;
  FAIL("no memory item " << name);
  return 0;
}

void check_inference_plan(const Arch& a, const Placement& p, const Inference& in) {
  INFO(a.name << " tp" << p.tp << " pp" << p.pp << " dp" << p.dp << " ep" << p.ep);
  Planned x = planned(a, p);
  plan::InferencePlan P = plan::plan_inference(x.ctx(), x.L, static_cast<int>(in.batch), static_cast<int>(in.input),
                                               static_cast<int>(in.output));
  // Decode runs min(batch, pp) micro-batches of batch / that many sequences.
  const double micro = std::min(in.batch, p.pp);
  CHECK(P.micro_batches == micro);
  CHECK(P.micro_batch == in.batch / micro);
  CHECK(P.steps == in.output - 1);
  check_pass_ops(x, P.prefill, a, p, prefill_pass(a, in.input), 1);
  check_pass_ops(x, P.decode, a, p, decode_pass(a, in, in.batch / micro), in.batch / micro);
  if (p.pp == 1) CHECK(item(P.memory, "weights") == exact(held_weight_bytes(a, p)));
  double kv_tokens = 0;
  for (int i = 0; i < a.layers; ++i) kv_tokens += a.sliding[i] ? std::min(in.input + in.output, a.window) : in.input + in.output;
  if (p.pp == 1) CHECK(item(P.memory, "kv_cache") == exact(in.batch * kv_tokens * kv_elems_chip(a, p) * bytes_of(p.kv)));
}

}  // namespace

TEST_CASE("the inference plan: every operator, stride and shape derived", "[derived]") {
  Placement dense;
  dense.tp = 2;
  check_inference_plan(arch_of("Llama-3.1-8B"), dense, {4, 1000, 25});
  Placement dense_pp = dense;
  dense_pp.pp = 2, dense_pp.dp = 3;  // pipeline neighbours tp x dp = 6 chips apart
  check_inference_plan(arch_of("Llama-3.1-8B"), dense_pp, {5, 700, 9});
  Placement moe;
  moe.tp = 8, moe.ep = 4, moe.weights = "mxfp4", moe.act = "mxfp8";
  check_inference_plan(arch_of("gpt-oss-120b"), moe, {16, 10000, 30});
  Placement across = moe;
  across.tp = 2, across.ep = 16, across.dp = 8;
  check_inference_plan(arch_of("gpt-oss-120b"), across, {4, 500, 9});
  Placement qwen;
  qwen.tp = 8, qwen.weights = qwen.attn_weights = qwen.act = "mxfp8";
  check_inference_plan(arch_of("Qwen3-235B-A22B"), qwen, {8, 3000, 20});
  Placement mla = qwen;
  mla.dp = 8, mla.ep = 64;
  check_inference_plan(arch_of("DeepSeek-V3"), mla, {64, 2000, 100});
}

TEST_CASE("the training plan: backward, recompute, boundary, ZeRO exchanges and FLOPs derived", "[derived]") {
  Arch a = arch_of("Llama-3.1-70B");
  Placement p;
  p.tp = 4, p.pp = 4, p.dp = 9;
  for (int zero : {0, 1, 3}) {
    for (const char* rc : {"none", "selective", "full"}) {
      INFO("zero " << zero << " " << rc);
      Planned x = planned(a, p);
      plan::TrainingPlan P = plan::plan_training(x.ctx(), x.L, {8192, 144, 1, zero, rc});
      CHECK(P.micro_batches == 16);
      Pass s;
      s.seqs = 1, s.new_tokens = 8192, s.pairs_full = causal_pairs(8192, 0), s.write_kv = false;
      const std::vector<Op> fwd = layer_ops(a, p, s, false, false);
      check_ops(P.forward.at(0), fwd);
      // Backward: every operator's gradient, then what the recompute mode runs again.
      std::vector<Op> bwd;
      for (Op f : fwd) {
        Op b = f;
        b.name = f.name + ".bwd";
        if (f.name == "attn.core") b.flops = 2.5 * f.flops, b.hbm = 2 * f.hbm;
        else if (f.coll.empty() && f.flops > 0) b.flops = 2 * f.flops, b.hbm = 2 * f.hbm, b.kernels = 2 * f.kernels, b.gemms = 2 * f.gemms;
        else if (f.coll.empty()) b.hbm = 2 * f.hbm;
        bwd.push_back(b);
      }
      for (Op f : fwd)
        if (std::string(rc) == "full" || (std::string(rc) == "selective" && f.name == "attn.core")) {
          f.name += ".recompute";
          bwd.push_back(f);
        }
      check_ops(P.backward.at(0), bwd);
      check_ops(P.boundary, {coll("pp.send_activations", "permute", 8192 * a.d * 2, 4, 36),
                             coll("pp.send_gradients", "permute", 8192 * a.d * 2, 4, 36)});
      // The heaviest stage's parameters: 20 layers' shards and an embedding (or LM head) shard.
      const double elems = 20 * (attention_params_chip(a, p) + norm_params(a) + dense_mlp_params(a) / 4) + a.vocab * a.d / 4;
      CHECK(P.dense_elems == exact(elems));
      CHECK(P.expert_elems == 0);
      CHECK(P.dense_group == 9);
      CHECK(P.dense_stride == 4);
      std::vector<Op> dp;
      if (zero == 0) dp = {coll("dp.grad_all_reduce", "all-reduce", elems * 2, 9, 4)};
      else dp = {coll("dp.grad_reduce_scatter", "reduce-scatter", elems * 2, 9, 4), coll("dp.param_all_gather", "all-gather", elems * 2, 9, 4)};
      std::vector<plan::Operator> ex = plan::dp_exchange(x.ctx(), P, 9, 9);
      check_ops(ex, dp);
      if (zero == 3) CHECK(ex.at(1).count == 2 * 16);  // every micro-batch's forward and backward
      const double shard = zero >= 1 ? elems / 9 : elems;
      check_plan_op(plan::optimizer_step(x.ctx(), P, 9, 9), kernel("optimizer.adam_step", shard * (2 * 12 + 2 + 2), 1));
      // FLOPs per token that MFU counts: 2 x active parameters + causal attention.
      const double attn = a.layers * 2 * a.heads * (a.qk() + a.v()) * causal_pairs(8192, 0) / 8192;
      CHECK(P.model_flops_per_token == exact(2 * params_of(a).active + attn));
      CHECK(P.recompute_flops_per_token ==
            exact(std::string(rc) == "full" ? 2 * params_of(a).active + attn : std::string(rc) == "selective" ? attn : 0));
    }
  }
}

}  // namespace unit_derived_plan
