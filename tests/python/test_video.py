"""Kind video through the module: the same report as the CLI, the video figures where the
docstring says, and bad clips raising InputError naming their field."""
import json

import pytest

import trnsim
from conftest import SOURCE_DIR, canonical, cli

EXAMPLE = "video-wan2.1-14b-720p-trn3-gen2"


def test_a_video_example_runs_as_the_cli_prints_it():
    path = SOURCE_DIR / "examples" / f"{EXAMPLE}.json"
    report = trnsim.run(path)
    assert canonical(report) == canonical(cli("run", "--json", path).stdout)
    video = report["primary"]["result"]["video"]
    assert video["real_time_factor"] == pytest.approx(video["video_s"] / video["clip"]["duration_s"])
    assert report["ratios"]["workload"]["video_s"] < 1  # Trn3 Gen2 (MXFP8) is faster than Trn2 (FP8)


@pytest.mark.parametrize("field,value", [("frames", 80), ("steps", 0), ("width", 1000)])
def test_bad_clips_name_their_field(field, value):
    s = trnsim.example(EXAMPLE)
    s["workload"]["video"][field] = value
    with pytest.raises(trnsim.InputError) as info:
        trnsim.run(s)
    assert info.value.field == f"workload.video.{field}"
    assert json.dumps(s)  # the scenario itself stays plain data
