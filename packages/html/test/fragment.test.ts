import { describe, expect, test } from 'vitest';
import { fragmentText } from '../src/index.js';

describe('fragmentText', () => {
  test('removes tags and decodes named, decimal and hex character references', () => {
    expect(fragmentText('<b>Caf&eacute;</b> &#233;&#xE9; &amp; &lt;tag&gt; &hellip;')).toBe(
      'Café éé & <tag> …',
    );
  });

  test('turns block boundaries, line breaks and cells into single spaces', () => {
    expect(fragmentText('<p>one</p><p>two</p>three<br>four<ul><li>a</li><li>b</li></ul>')).toBe(
      'one two three four a b',
    );
    expect(fragmentText('<table><tr><td>x</td><td>y</td></tr></table>')).toBe('x y');
  });

  test('keeps inline boundaries glued and leaves script and style out', () => {
    expect(fragmentText('un<b>bold</b>ed<script>alert(1)</script><style>p{}</style>')).toBe(
      'unbolded',
    );
  });

  test('keeps a no-break space, collapses ASCII whitespace and trims', () => {
    expect(fragmentText('  a&nbsp;b \n\t c  ')).toBe('a\u00a0b c');
  });

  test('recovers broken markup and survives deep nesting', () => {
    expect(fragmentText('a < b and <i>c')).toBe('a < b and c');
    expect(fragmentText(`${'<div>'.repeat(20000)}deep${'</div>'.repeat(20000)}`)).toBe('deep');
  });
});
