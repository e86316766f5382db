import '@kestrel/ui/base.css';
import { mountStandalone, standalonePages } from '@kestrel/shared-runtime/standalone';

// This remote's page files, one lazy chunk each (not recursive: the tests in __tests__ stay out of the build)
const pageFiles = import.meta.webpackContext('./app/routes', {
  recursive: false,
  regExp: /\.tsx$/,
  mode: 'lazy',
});

// The remote's own page, so its team can work on it without the shell; its pages come from the route table
mountStandalone({
  title: 'Kestrel bots (standalone)',
  pages: standalonePages('bots', (source) => pageFiles(source.replace('./src/app/routes/', './'))),
});
