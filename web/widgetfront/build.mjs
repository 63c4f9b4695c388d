// Bundles src/front.js, with the widgets' CSS, into dist/front.js and
// dist/front.css: one IIFE and one stylesheet, nothing fetched at run time.
import * as esbuild from 'esbuild';

await esbuild.build({
  entryPoints: ['src/front.js'],
  outfile: 'dist/front.js',
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2020',
  minify: true,
  legalComments: 'eof',
  // Fonts and images the CSS references go inline, so the page needs no
  // other files.
  loader: { '.woff': 'dataurl', '.woff2': 'dataurl', '.ttf': 'dataurl', '.eot': 'dataurl', '.svg': 'dataurl', '.png': 'dataurl', '.gif': 'dataurl' },
  define: { 'process.env.NODE_ENV': '"production"' },
  plugins: [{
    // html-manager also carries ipywidgets 7's models (protocol 1) for old
    // notebooks; routelab speaks protocol 2 only, so they are left out.
    name: 'no-widgets7',
    setup(build) {
      build.onResolve({ filter: /^@jupyter-widgets\/(base7|controls7)(\/|$)/ }, (args) => ({ path: args.path, namespace: 'widgets7' }));
      build.onLoad({ filter: /.*/, namespace: 'widgets7' }, (args) => args.path.endsWith('.css')
        ? { contents: '', loader: 'css' }
        : { contents: 'throw new Error("ipywidgets 7 models (widget protocol 1) are not supported");', loader: 'js' });
    },
  }],
  logLevel: 'warning',
});
