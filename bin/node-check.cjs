// Runs before anything else in `npm start`, `npm run start:browser` and `einvoice`: on an older
// Node the app fails later in confusing ways (an undici TypeError), so say what is needed.
// Plain CommonJS that any old Node can parse.
'use strict';

const NEEDED_MAJOR = 24;

/** The one line to print when `version` (like `v20.20.2`) is too old, else null. */
function nodeVersionProblem(version) {
  const match = /^v?(\d+)\./.exec(version);
  const major = match ? Number(match[1]) : 0;
  if (major >= NEEDED_MAJOR) return null;
  return `eInvoice Desk needs Node.js ${NEEDED_MAJOR} or newer (found ${version}). / eInvoice Desk cần Node.js ${NEEDED_MAJOR} trở lên (đang có ${version}).`;
}

function requireNode(version = process.version) {
  const problem = nodeVersionProblem(version);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}

module.exports = { nodeVersionProblem, requireNode };
