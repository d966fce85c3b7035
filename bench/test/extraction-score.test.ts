import { expect, test } from 'vitest';
import {
  markdownToText,
  shingleScore,
  shingles,
  snippetScore,
  tokens,
} from '../lib/extraction-score.js';

test('tokens are lowercased Unicode words; punctuation and markup signs are not tokens', () => {
  expect(tokens('Hello, World! Ça va? 3.14 — snake_case #tag')).toEqual([
    'hello',
    'world',
    'ça',
    'va',
    '3',
    '14',
    'snake_case',
    'tag',
  ]);
});

test('shingles are a set of 4-token windows; a short text is one shingle', () => {
  expect([...shingles('a b c d e')]).toEqual(['a b c d', 'b c d e']);
  expect([...shingles('a b c d a b c d')]).toEqual(['a b c d', 'b c d a', 'c d a b', 'd a b c']);
  expect([...shingles('only two')]).toEqual(['only two']);
  expect(shingles('  ').size).toBe(0);
});

test('precision, recall and F1 of shingle sets', () => {
  const gold = shingles('one two three four five six');
  expect(shingleScore('one two three four five six', gold)).toEqual({
    precision: 1,
    recall: 1,
    f1: 1,
  });
  // Half the gold, nothing else: precision 1, recall 1/3 (1 of 3 shingles).
  const half = shingleScore('one two three four', gold);
  expect(half.precision).toBe(1);
  expect(half.recall).toBeCloseTo(1 / 3);
  expect(half.f1).toBeCloseTo(0.5);
  // The gold plus as much noise: precision falls, recall stays.
  const noisy = shingleScore('one two three four five six x y z w v u', gold);
  expect(noisy.recall).toBe(1);
  expect(noisy.precision).toBeCloseTo(3 / 9);
  expect(shingleScore('', gold)).toEqual({ precision: 0, recall: 0, f1: 0 });
  expect(shingleScore('unrelated words entirely here', gold).f1).toBe(0);
});

test('snippet checks are whitespace-insensitive and case-exact', () => {
  const score = snippetScore('The  quick\nbrown fox', ['quick brown', 'Quick'], ['fox', 'dog']);
  expect(score).toEqual({ withFound: 1, withTotal: 2, withoutFound: 1, withoutTotal: 2 });
});

test('markdown reads as the text a reader sees: no images, link texts, no markers', () => {
  expect(
    markdownToText(
      '# Title\n\n![a photo](https://x.test/p.jpg) See [the report](https://x.test/r) and **bold** _em_ ~~old~~ \\*star',
    ),
  ).toBe('# Title\n\n See the report and bold em old *star');
});
