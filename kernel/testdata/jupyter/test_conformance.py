"""Jupyter's kernel conformance suite, pointed at an installed kernelspec.

The kernel is named by ROUTELAB_KERNEL_NAME (default "routelab"); its code
samples come from the JSON file ROUTELAB_KERNEL_SAMPLES (default: NAME.json
beside this file). Each key of that file is an attribute of
jupyter_kernel_test.KernelTests (code_hello_world, completion_samples, ...),
except code_setup: a cell run once after the kernel starts, so samples can
use session state (completing a variable needs one to exist).

    ROUTELAB_KERNEL_NAME=routelab-echo /usr/bin/python3 test_conformance.py -v

Run with Debian's /usr/bin/python3 (python3-jupyter-kernel-test 0.4.5).
"""

import json
import os
import sys
import unittest

import jupyter_kernel_test

SAMPLE_KEYS = {
    "language_name", "file_extension", "code_hello_world", "code_stderr",
    "completion_samples", "complete_code_samples", "incomplete_code_samples",
    "invalid_code_samples", "code_page_something", "code_generate_error",
    "code_execute_result", "code_display_data", "code_history_pattern",
    "supported_history_operations", "code_inspect_sample", "code_clear_output",
    "code_setup",
}


def load_samples():
    name = os.environ.get("ROUTELAB_KERNEL_NAME", "routelab")
    path = os.environ.get("ROUTELAB_KERNEL_SAMPLES") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), name + ".json")
    with open(path, encoding="utf-8") as f:
        samples = json.load(f)
    unknown = sorted(set(samples) - SAMPLE_KEYS)
    if unknown:
        sys.exit(f"{path}: unknown keys {unknown}; allowed: {sorted(SAMPLE_KEYS)}")
    if "supported_history_operations" in samples:
        samples["supported_history_operations"] = tuple(samples["supported_history_operations"])
    return name, samples


KERNEL_NAME, SAMPLES = load_samples()


@classmethod
def set_up_class(cls):
    jupyter_kernel_test.KernelTests.setUpClass.__func__(cls)
    if cls.code_setup:
        reply = cls.kc.execute_interactive(cls.code_setup, timeout=60, output_hook=lambda msg: None)
        if reply["content"]["status"] != "ok":
            raise RuntimeError("code_setup %r failed: %r" % (cls.code_setup, reply["content"]))


KernelConformance = type(
    "KernelConformance",
    (jupyter_kernel_test.KernelTests,),
    dict(SAMPLES, kernel_name=KERNEL_NAME, code_setup=SAMPLES.get("code_setup", ""), setUpClass=set_up_class),
)

if __name__ == "__main__":
    unittest.main()
