// The English stop list is the `stopword` package's (copied into text/stopwords.ts so that a CLI
// command does not load the package's 62 languages): the copy must stay the package's list.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eng } from 'stopword';
import { isStopWord, STOPWORD_PACKAGE_ENGLISH } from '../../src/text/stopwords.ts';

test('the copied English list is the stopword package list, and every word of it is a stop word', () => {
  assert.deepEqual([...STOPWORD_PACKAGE_ENGLISH], [...eng]);
  for (const word of eng) assert.ok(isStopWord(word), word);
});
