# Thin wrapper over meson: `make demo`, `make test`, `make bench`, `make install`.
BUILD ?= build
MESON_OPTS ?=
export PATH := $(PATH):/usr/local/cuda/bin

.PHONY: all deps build demo test bench install clean

all: build

deps:
	@build-aux/install-deps.sh

$(BUILD)/build.ninja:
	meson setup $(BUILD) $(MESON_OPTS)

build: deps $(BUILD)/build.ninja
	ninja -C $(BUILD)

# Decodes a real video (Debian opencv-doc's vtest.avi), runs
# cudaupload ! cudagray ! cudablur sigma=2 ! cudadownload, writes an MP4 and a
# PNG contact sheet into out/.
demo: build
	GST_PLUGIN_PATH=$(CURDIR)/$(BUILD)/plugins pipelines/demo.sh out

# All tests; ends with one line "N passed, N failed, N skipped".
test: build
	@rm -rf $(BUILD)/tests/reports $(BUILD)/sanitizer-reports/*; rc=0; meson test -C $(BUILD) --print-errorlogs --num-processes 2 || rc=$$?; \
	/usr/bin/python3 tests/summary.py $(BUILD) || rc=1; exit $$rc

# Installs into the build's prefix (/usr/local unless configured otherwise:
# `meson configure $(BUILD) -Dprefix=...` changes an existing build), the
# plugin where GStreamer looks (-Dgst_plugins_dir), then refreshes the
# loader's cache so the plugin finds libcudafilters. Needs root for /usr/local.
install: build
	meson install -C $(BUILD)
	ldconfig

# Builds the benchmarks; they run on a GPU host (bench/run-bench.sh, see
# ../shared/device/README.md), results in bench/results/.
bench: build
	@ls $(BUILD)/bench/cf-bench && echo "bench: built; run bench/run-bench.sh on a GPU host"

clean:
	rm -rf $(BUILD) out
