// The video schedule: one clip is the text encoding, then `steps` denoising steps (full ones
// and, with step caching, cached ones), then the VAE decode, one after another:
//   clip time = text + full steps x step + cached steps x cached step + decode,
// and the real-time factor is the clip time over the clip's duration (frames / fps).
// Inside a step the operators run in order, except ring attention's key/value passes, which
// overlap the attention blocks they feed (Liu et al. 2023): of each pass only what the
// attention block of that round does not cover is exposed, (r - 1) x max(0, pass - attention / r)
// per self-attention. The timeline shows the text encoding, the first step operator by operator,
// the other steps as blocks, and the decode.
// Does NOT model: overlap of the decode with the next clip's denoising on other chips (replicas
// do that), overlap of Ulysses' all-to-alls or TP all-reduces with compute, host time.
#pragma once
#include <vector>

#include "plan/video.h"
#include "price/pricer.h"
#include "schedule/schedule.h"

namespace trnsim::schedule {

// Ring attention's exposed transfer time: the ring_kv operators' time_s becomes what the
// attention of the same self-attention does not hide (their detail says how much was hidden).
void overlap_ring_attention(std::vector<price::PricedOp>& step_ops);

struct VideoTimes {
  double text_s = 0, step_s = 0, cached_step_s = 0, vae_s = 0;
  double denoise_s = 0;   // every step
  double video_s = 0;     // one clip, end to end
  double duration_s = 0;  // of the clip
  double real_time_factor = 0;
};
double sum_total(const std::vector<price::PricedOp>& ops);
VideoTimes video_times(const plan::VideoPlan& P, const std::vector<price::PricedOp>& text,
                       const std::vector<price::PricedOp>& step, const std::vector<price::PricedOp>& cached,
                       const std::vector<price::PricedOp>& vae);
// The same schedule as a timeline; its end equals video_times(...).video_s.
Timeline video_timeline(const plan::VideoPlan& P, const VideoTimes& t, const std::vector<price::PricedOp>& text,
                        const std::vector<price::PricedOp>& step, const std::vector<price::PricedOp>& vae);

}  // namespace trnsim::schedule
