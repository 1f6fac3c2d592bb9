#!/bin/sh
# Installs the Debian 12 packages cudafilters needs to build, test and run its
# demo, if any is missing. Needs root (or prints the command to run).
# The CUDA toolkit is not a Debian package here: nvcc is taken from PATH or
# /usr/local/cuda/bin; without it the build falls back to the CPU references.
set -eu
packages="meson ninja-build pkg-config gcc g++ python3 libglib2.0-dev
 libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libgstreamer-plugins-bad1.0-dev
 gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
 gstreamer1.0-plugins-bad gstreamer1.0-libav libgtest-dev opencv-doc libopencv-dev
 libavformat-dev libavcodec-dev libavutil-dev libswscale-dev ffmpeg libjson-glib-dev locales"
missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
    echo "cudafilters: missing Debian packages:$missing" >&2
    echo "cudafilters: run as root:  apt-get install -y$missing" >&2
    exit 1
fi
count=$(echo $missing | wc -w)
echo "cudafilters: installing $count missing Debian packages with apt-get (about a minute on a" \
     "fresh machine):$missing"
start=$(date +%s)
export DEBIAN_FRONTEND=noninteractive
echo "cudafilters: apt-get update"
apt-get update -qq
echo "cudafilters: apt-get install (downloading and unpacking; quiet until it is done)"
apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "cudafilters: $count packages installed in $(($(date +%s) - start)) s"
