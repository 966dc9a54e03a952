// Bundled in place of sharp for @huggingface/transformers only (scripts/build-cli.mjs). The CLI embeds
// text, never images; transformers imports sharp for its image helpers when it loads and refuses to
// load without it, and loading sharp (libvips) cost every semantic recall ~10-15 ms. An image given
// to these helpers in the CLI fails here instead.
'use strict';

module.exports = function sharp() {
  throw new Error('the engram CLI does not process images (sharp is not loaded)');
};
