#!/bin/sh
# fetch.sh re-fetches the ECharts library that plot/ embeds, from the npm
# registry, and checks it against the recorded SHA-256 before replacing
# anything. Run it through `go generate ./plot/` (needs npm, tar, gzip,
# sha256sum). To move to another 5.x release, change VERSION, run
# `sha256sum package/dist/echarts.min.js` on the new package and record the
# result in echarts.min.js.sha256 after reviewing the release.
set -eu

VERSION=5.4.3
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

npm pack --silent "echarts@$VERSION" >/dev/null
tar xzf "echarts-$VERSION.tgz"
(cd package/dist && sha256sum --check --quiet "$here/echarts.min.js.sha256")

# The minified bundle also contains zrender and tslib: ship their licences too.
deps=$(node -p "const d=require('./package/package.json').dependencies; 'zrender@'+d.zrender+' tslib@'+d.tslib")
for dep in $deps; do
	mkdir -p "dep/$dep"
	npm pack --silent "$dep" >/dev/null
	tar xzf "$(echo "$dep" | sed 's/@/-/').tgz" -C "dep/$dep" --strip-components=1
done

gzip -n -9 -c package/dist/echarts.min.js >"$here/echarts.min.js.gz"
cp package/LICENSE "$here/LICENSE-echarts"
cp package/NOTICE "$here/NOTICE-echarts"
cp package/licenses/LICENSE-d3 "$here/LICENSE-d3"
for dep in $deps; do
	name=$(echo "$dep" | sed 's/@.*//')
	rm -f "$here/LICENSE-$name"
	for f in LICENSE LICENSE.txt; do
		if [ -f "dep/$dep/$f" ]; then cp "dep/$dep/$f" "$here/LICENSE-$name"; fi
	done
	[ -f "$here/LICENSE-$name" ] || { echo "no licence file in $dep" >&2; exit 1; }
done
echo "fetched echarts@$VERSION into $here"
