// The English stop list is the `stopword` package's (copied into text/stopwords.ts so that a CLI
// command does not load the package's 62 languages): the copy must stay the package's list. And the
// quick answer by first character never disagrees with the list.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eng } from 'stopword';
import { isStopWord, stopWords, STOPWORD_PACKAGE_ENGLISH } from '../../src/text/stopwords.ts';

test('the copied English list is the stopword package list, and every word of it is a stop word', () => {
  assert.deepEqual([...STOPWORD_PACKAGE_ENGLISH], [...eng]);
  for (const word of eng) assert.ok(isStopWord(word), word);
});

test('isStopWord answers as the list does, also for words that share a stop word’s first character', () => {
  const list = new Set(stopWords());
  const probes = [...list, ...[...list].flatMap((w) => [`${w}x`, w.slice(0, -1), `${w}的`, w.toUpperCase()]), '', '东京', '的确', '是否', 'thex', '🍜'];
  for (const p of probes) assert.equal(isStopWord(p), list.has(p), JSON.stringify(p));
});
