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


IMAGE = "image-flux.1-dev-1024-trn3-gen2"


def test_an_image_example_returns_time_per_image_as_the_cli_prints_it():
    path = SOURCE_DIR / "examples" / f"{IMAGE}.json"
    report = trnsim.run(path)
    assert canonical(report) == canonical(cli("run", "--json", path).stdout)
    video = report["primary"]["result"]["video"]
    image = video["image"]
    chips = video["placement"]["chips_per_replica"]
    assert image["image_s"] == pytest.approx(video["video_s"] / image["batch"])
    assert image["images_per_chip_hour"] == pytest.approx(3600 * image["batch"] / (video["video_s"] * chips))
    assert "real_time_factor" not in report["ratios"]["workload"]  # a clip's figure, not an image's
    assert report["ratios"]["workload"]["images_per_chip_hour"] > 1  # Trainium3 makes more an hour


def test_an_image_model_asked_for_a_clip_names_the_frames():
    s = trnsim.example(IMAGE)
    s["workload"]["video"]["frames"] = 81
    with pytest.raises(trnsim.InputError) as info:
        trnsim.run(s)
    assert info.value.field == "workload.video.frames"
