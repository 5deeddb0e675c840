import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { autop, sanitizeRichText, stripTags } from '../../src/lib/html.js';

describe('autop', () => {
  it('wraps plain text in paragraphs', () => {
    assert.equal(autop('Golden description'), '<p>Golden description</p>');
    assert.equal(autop('a\n\nb'), '<p>a</p>\n<p>b</p>');
    assert.equal(autop('a\r\n\r\nb\n\n\n'), '<p>a</p>\n<p>b</p>');
    assert.equal(autop('a\nb'), '<p>a<br />\nb</p>');
    assert.equal(autop('<strong>a</strong> b'), '<p><strong>a</strong> b</p>');
    assert.equal(autop(''), '');
    assert.equal(autop('  \n  '), '');
  });

  it('leaves block-level HTML alone', () => {
    assert.equal(autop('<p>x</p>'), '<p>x</p>');
    assert.equal(autop('<div>x</div>'), '<div>x</div>');
    assert.equal(autop('<div>\na\n\nb\n</div>'), '<div>\na\n\nb\n</div>');
    assert.equal(autop('<pre>a\n\nb</pre>\n'), '<pre>a\n\nb</pre>');
    assert.equal(autop('<p>a</p>\nb\n\nc'), '<p>a</p>\nb\n<p>c</p>');
    assert.equal(autop('Intro\n\n<ul><li>x</li></ul>\n\nOutro'), '<p>Intro</p>\n<ul><li>x</li></ul>\n<p>Outro</p>');
  });
});

describe('sanitizeRichText', () => {
  it('keeps ordinary formatting', () => {
    const html =
      '<p>Hi <strong>there</strong> <a href="https://example.com/" title="t" target="_blank" rel="noopener">link</a></p>' +
      '<ul><li><em>x</em></li></ul><img src="https://example.com/a.png" alt="a" width="10" height="10" />';
    assert.equal(
      sanitizeRichText(html),
      '<p>Hi <strong>there</strong> <a href="https://example.com/" title="t" target="_blank" rel="noopener noreferrer">link</a></p>' +
        '<ul><li><em>x</em></li></ul><img src="https://example.com/a.png" alt="a" width="10" height="10" />',
    );
  });

  it('removes script-capable elements with their content', () => {
    assert.equal(sanitizeRichText('<p>a</p><script>alert(1)</script><style>p{}</style>'), '<p>a</p>');
    assert.equal(sanitizeRichText('<iframe src="https://x">fallback</iframe><object>o</object><embed src="x">b'), 'b');
    assert.equal(sanitizeRichText('<svg><script>alert(1)</script></svg><math><mi>x</mi></math>c'), 'c');
    assert.equal(sanitizeRichText('<form action="https://x"><input name="a"><button>b</button></form>'), 'b');
  });

  it("keeps an editor's rich formatting and the embeds of known players, sandboxed", () => {
    const rich =
      '<h2 lang="fr">Programme</h2><figure><img src="https://example.com/a.png" alt="a" /><figcaption>c</figcaption></figure>' +
      '<table><caption>t</caption><thead><tr><th scope="col">h</th></tr></thead><tbody><tr><td colspan="2">d</td></tr></tbody></table>' +
      '<blockquote><p>q</p></blockquote><hr /><ol start="3"><li>x</li></ol><dl><dt>a</dt><dd>b</dd></dl>';
    assert.equal(sanitizeRichText(rich), rich);
    const blocks =
      '<div class="wp-block-columns"><h2 id="programme">P</h2><a href="#programme" id="top">up</a></div>' +
      '<video src="https://example.com/v.mp4" poster="https://example.com/p.jpg" controls><track src="https://example.com/c.vtt" kind="captions" srclang="fr" /></video>';
    assert.equal(sanitizeRichText(blocks), blocks);
    assert.equal(
      sanitizeRichText('Plain text, "quoted"; 1 < 2 & 3 > 2'),
      'Plain text, "quoted"; 1 &lt; 2 &amp; 3 &gt; 2',
    );
    assert.equal(sanitizeRichText("Plain text, it's fine"), "Plain text, it's fine");
    assert.equal(
      sanitizeRichText(
        '<iframe src="https://www.youtube-nocookie.com/embed/x" width="560" height="315" sandbox="allow-top-navigation" allowfullscreen></iframe>',
      ),
      '<iframe src="https://www.youtube-nocookie.com/embed/x" width="560" height="315" sandbox="allow-scripts allow-same-origin allow-presentation allow-popups" allowfullscreen loading="lazy" referrerpolicy="no-referrer"></iframe>',
    );
    assert.equal(sanitizeRichText('<iframe src="http://www.youtube.com/embed/x"></iframe>ok'), 'ok');
    assert.equal(sanitizeRichText('<iframe srcdoc="<script>alert(1)</script>"></iframe>ok'), 'ok');
  });

  it('removes event handlers and dangerous URLs', () => {
    assert.equal(sanitizeRichText('<p onclick="x()">a</p>'), '<p>a</p>');
    assert.equal(sanitizeRichText('<a href="javascript:alert(1)">a</a>'), '<a>a</a>');
    assert.equal(sanitizeRichText('<a href=" JaVaScRiPt:alert(1)">a</a>'), '<a>a</a>');
    assert.equal(sanitizeRichText('<a href="vbscript:x">a</a>'), '<a>a</a>');
    assert.equal(sanitizeRichText('<a href="data:text/html,x">a</a>'), '<a>a</a>');
    assert.equal(sanitizeRichText('<img src="data:text/html,x" alt="a" />'), '<img alt="a" />');
    assert.equal(
      sanitizeRichText('<img src="data:image/png;base64,AAAA" />'),
      '<img src="data:image/png;base64,AAAA" />',
    );
    assert.equal(sanitizeRichText('<img src="data:image/svg+xml,<svg onload=alert(1)>" alt="a" />'), '<img alt="a" />');
    assert.equal(sanitizeRichText('<p style="background:url(javascript:x)" id="y">a</p>'), '<p>a</p>');
    assert.equal(
      sanitizeRichText('<video src="javascript:x" poster="javascript:y" controls></video>'),
      '<video controls></video>',
    );
    assert.equal(sanitizeRichText('<audio src="http://example.com/a.mp3"></audio>'), '<audio></audio>');
    assert.equal(sanitizeRichText('<a href="//evil.example/">a</a>'), '<a>a</a>');
  });
});

describe('stripTags', () => {
  it('returns the text content', () => {
    assert.equal(stripTags('<p>Hello <b>World</b></p>'), 'Hello World');
    assert.equal(stripTags('a<script>alert(1)</script>b'), 'ab');
    assert.equal(stripTags('  A &amp; B & C &lt;3 &eacute; '), 'A & B & C <3 é');
    assert.equal(stripTags(''), '');
  });
});
