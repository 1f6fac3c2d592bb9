#!/bin/sh
# Installs the build into a temporary directory like a package would, then
# uses it as an outside application would: builds the embedding examples
# against the installed pkg-config file alone, runs them, and finds the
# elements with gst-inspect-1.0 in the installed plugin directory, which is
# GStreamer's own (or linked from there).
#   test_install.sh BUILD_DIR SOURCE_DIR GST_PLUGINS_DIR
set -eu
build=$1
src=$2
gstdir=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
meson install -C "$build" --destdir "$tmp" >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; exit 1; }
pc=$(find "$tmp" -name cudafilters-1.0.pc)
[ -n "$pc" ] || { echo "FAIL: no cudafilters-1.0.pc installed"; exit 1; }
prefix=$tmp$(sed -n 's/^prefix=//p' "$pc")
pkg() { PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --define-variable=prefix="$prefix" "$@"; }
libdir=$(pkg --variable=libdir cudafilters-1.0)
for h in cudafilters.h device.h filter.h format.h frame.h status.h export.h; do
    [ -f "$(pkg --variable=includedir cudafilters-1.0)/cudafilters/$h" ] ||
        { echo "FAIL: header $h not installed"; exit 1; }
done
echo "ok   installed: $(find "$tmp" -type f | sed "s|$tmp||" | tr '\n' ' ')"

# shellcheck disable=SC2046 # word splitting of pkg-config output is intended
cc -std=c11 -Wall -Wextra -Werror "$src/examples/core_api.c" \
    $(pkg --cflags --libs cudafilters-1.0) -o "$tmp/core_api"
LD_LIBRARY_PATH=$libdir "$tmp/core_api"
echo "ok   core_api built against the installed pkg-config file and ran"

plugins=$libdir/gstreamer-1.0
# GStreamer's own plugin directory holds the plugin, or a link to it where
# the prefix is not GStreamer's (-Dgst_plugins_dir changes the directory).
if [ "$tmp$gstdir" != "$plugins" ]; then
    link=$tmp$gstdir/libgstcudafilters.so
    [ -L "$link" ] && [ "$(readlink "$link")" = "${plugins#"$tmp"}/libgstcudafilters.so" ] ||
        { echo "FAIL: no link to the plugin in $gstdir"; ls -l "$tmp$gstdir"; exit 1; }
    echo "ok   $gstdir/libgstcudafilters.so links to ${plugins#"$tmp"}"
fi
# GStreamer loads a plugin through such a link (made here inside the staging dir).
mkdir "$tmp/linked"
ln -s "$plugins/libgstcudafilters.so" "$tmp/linked/libgstcudafilters.so"
export LD_LIBRARY_PATH="$libdir" GST_PLUGIN_PATH="$tmp/linked" GST_REGISTRY="$tmp/registry.bin"
gst-inspect-1.0 cudablur | grep -q "Filename.*$tmp/linked/libgstcudafilters.so" ||
    { echo "FAIL: gst-inspect-1.0 does not find cudablur through a link"; exit 1; }
echo "ok   gst-inspect-1.0 finds cudablur in the installed plugin, through a link"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror "$src/examples/app_pipeline.c" \
    $(pkg-config --cflags --libs gstreamer-1.0 gstreamer-app-1.0) -o "$tmp/app_pipeline"
"$tmp/app_pipeline"
echo "ok   app_pipeline ran the installed elements"
