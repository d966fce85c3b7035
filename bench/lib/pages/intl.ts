import type { Rng } from '../prng.js';
import { adSlot, cookieBanner, esc, jsonLd, type PageSpec, slug, standardHead } from './kit.js';

export const rtlArabic: PageSpec = {
  name: 'rtl-arabic',
  url: 'https://www.alwaha-news.example/culture/2025/02/new-city-library-opens',
  contentType: 'text/html; charset=utf-8',
  title: 'Arabic news article, right-to-left (`dir="rtl"`), with embedded left-to-right runs',
  description:
    'An Arabic-language news article about the opening of a city library, on a site laid out right to left: `<html lang="ar" dir="rtl">`, Arabic navigation, breadcrumbs and footer, a byline and date in Arabic-Indic digits, NewsArticle JSON-LD with `inLanguage: "ar"`, and paragraphs that embed Latin-script names, URLs and Western digits in `<bdi>` and `<span dir="ltr">`.',
  exercises: [
    'right-to-left text: extracted text must keep logical order and never insert bidi control characters',
    'Arabic-Indic digits (٢٠٢٥) next to Western digits (2025), Arabic comma (،) and question mark (؟)',
    '`<bdi>` and `dir="ltr"` spans with Latin script inside Arabic sentences',
    'og:locale ar_AR and hreflang alternates to an English version',
  ],
  build(rng: Rng) {
    const url = this.url;
    const title = 'افتتاح مكتبة الواحة العامة الجديدة بعد خمس سنوات من البناء';
    const description =
      'افتتحت مدينة الواحة مكتبتها العامة الجديدة التي تضم أكثر من ثلاثمئة ألف كتاب وقاعات للدراسة ومختبراً رقمياً مفتوحاً للجميع.';
    const ld = {
      '@context': 'https://schema.org',
      '@type': 'NewsArticle',
      headline: title,
      description,
      inLanguage: 'ar',
      datePublished: '2025-02-17T09:00:00+03:00',
      dateModified: '2025-02-17T13:20:00+03:00',
      author: { '@type': 'Person', name: 'ليلى الحسيني' },
      publisher: {
        '@type': 'Organization',
        name: 'أخبار الواحة',
        logo: { '@type': 'ImageObject', url: 'https://www.alwaha-news.example/static/logo.png' },
      },
      image: ['https://cdn.alwaha-news.example/2025/02/library-1200.jpg'],
    };
    const head = standardHead({
      title: `${title} | أخبار الواحة`,
      description,
      canonical: url,
      siteName: 'أخبار الواحة',
      image: 'https://cdn.alwaha-news.example/2025/02/library-1200.jpg',
      ogType: 'article',
      locale: 'ar_AR',
      twitterSite: '@alwahanews',
      author: 'ليلى الحسيني',
      extra: `<link rel="alternate" hreflang="ar" href="${url}">\n<link rel="alternate" hreflang="en" href="https://en.alwaha-news.example/culture/2025/02/new-city-library-opens">\n<meta property="article:published_time" content="2025-02-17T09:00:00+03:00">\n<meta property="article:section" content="ثقافة">\n${jsonLd(ld)}`,
      css: 'body{font-family:"Noto Naskh Arabic",Tahoma,sans-serif;line-height:1.9}.nav ul{display:flex;gap:1.25rem;list-style:none;padding:0}.article{max-width:44rem;margin:auto}.ltr{direction:ltr;unicode-bidi:isolate}',
      assets:
        '<link rel="stylesheet" href="/static/css/rtl.4c1a9e.css">\n<script src="/static/js/site.2f0d71.js" defer></script>',
    });
    const sections = [
      'الرئيسية',
      'محليات',
      'اقتصاد',
      'رياضة',
      'ثقافة',
      'تكنولوجيا',
      'صحة',
      'رأي',
      'منوعات',
      'فيديو',
    ];
    const paras = [
      'افتتحت بلدية مدينة الواحة صباح الإثنين مكتبتها العامة الجديدة في حي النخيل، بعد خمس سنوات من أعمال البناء وتكلفة بلغت نحو ١٢٠ مليون درهم. وحضر الافتتاح عدد كبير من الأهالي والطلاب الذين اصطفوا أمام المدخل قبل ساعة من الموعد.',
      'ويضم المبنى المكوّن من أربعة طوابق أكثر من ثلاثمئة ألف كتاب باللغتين العربية والإنجليزية، إضافة إلى أرشيف للصحف المحلية يعود إلى عام ١٩٥٢، وقاعات للدراسة تتسع لستمئة شخص.',
      'وقالت مديرة المكتبة سلمى العبيدي إن المكتبة «ليست مخزناً للكتب، بل مكان يلتقي فيه الناس». وأضافت أن الطابق الأرضي خُصص للأطفال والعائلات، ويضم مسرحاً صغيراً لقراءة القصص كل يوم سبت.',
      'ومن أبرز مرافق المبنى مختبر رقمي مفتوح يحتوي على طابعات ثلاثية الأبعاد وأجهزة لتحويل الأشرطة القديمة إلى ملفات رقمية، ويمكن حجزه عبر الموقع <span dir="ltr" class="ltr">library.alwaha.example/lab</span> أو تطبيق المكتبة.',
      'وصمّم المبنى مكتب <bdi>Studio Maren &amp; Haddad</bdi> المعماري، الذي استلهم واجهته من المشربيات التقليدية لتخفيف حرارة الشمس وتقليل استهلاك الطاقة بنسبة تصل إلى 40% مقارنة بالمباني المماثلة، بحسب تقرير الشركة.',
      'وتفتح المكتبة أبوابها يومياً من الساعة ٨ صباحاً حتى ١٠ مساءً، ما عدا يوم الجمعة حيث تفتح من ٢ ظهراً. والعضوية مجانية لسكان المدينة، فيما يدفع الزوار رسماً سنوياً قدره 50 درهماً.',
      'هل ستغيّر المكتبة الجديدة عادات القراءة في المدينة؟ يقول أستاذ علم الاجتماع في جامعة الواحة الدكتور كريم الناصر إن «المكتبات الناجحة هي التي تجذب من لا يقرأ عادةً»، مشيراً إلى أن نصف زوار المكتبات الحديثة يأتون للدراسة أو العمل أو حضور الفعاليات.',
    ];
    const related = [
      'معرض الكتاب يعود في دورته الخامسة عشرة بمشاركة ٤٠٠ دار نشر',
      'جامعة الواحة تطلق برنامجاً لترميم المخطوطات',
      'افتتاح ثلاثة مراكز ثقافية في الأحياء الجديدة',
      'مسابقة القراءة للأطفال تسجل رقماً قياسياً',
    ];
    const body = `<body class="rtl">
<header class="site-header"><div class="top-bar"><span class="date">الإثنين ١٧ فبراير ٢٠٢٥</span> · <a href="https://en.alwaha-news.example/">English</a> · <a href="/login">تسجيل الدخول</a></div>
<a class="logo" href="/"><img src="/static/logo.svg" alt="أخبار الواحة" width="200" height="48"></a>
<nav class="nav" aria-label="الأقسام"><ul>${sections.map((s, i) => `<li><a href="/section/${i}">${s}</a></li>`).join('')}</ul></nav>
<form class="search" action="/search" role="search"><input type="search" name="q" placeholder="ابحث في الموقع" aria-label="بحث"><button>بحث</button></form></header>
${adSlot('ad-top', '728x90', 'إعلان')}
<main class="article">
<nav class="breadcrumb" aria-label="مسار التنقل"><a href="/">الرئيسية</a> › <a href="/culture">ثقافة</a> › <span>مكتبة الواحة</span></nav>
<article>
<h1>${title}</h1>
<p class="lead">${description}</p>
<p class="byline">كتبت: <a href="/authors/layla-alhusseini">ليلى الحسيني</a> · <time datetime="2025-02-17T09:00:00+03:00">١٧ فبراير ٢٠٢٥ - ٩:٠٠ ص</time> · آخر تحديث <time datetime="2025-02-17T13:20:00+03:00">١:٢٠ م</time></p>
<figure><img src="https://cdn.alwaha-news.example/2025/02/library-1200.jpg" width="1200" height="675" alt="الواجهة الخارجية لمكتبة الواحة العامة الجديدة"><figcaption>الواجهة المستوحاة من المشربيات التقليدية (تصوير: <bdi>Omar Saleh</bdi>)</figcaption></figure>
${paras.map((t) => `<p>${t}</p>`).join('\n')}
<h2>أرقام عن المكتبة</h2>
<table><thead><tr><th>البند</th><th>العدد</th></tr></thead><tbody><tr><td>الكتب</td><td>٣٠٠٬٠٠٠</td></tr><tr><td>مقاعد الدراسة</td><td>٦٠٠</td></tr><tr><td>أجهزة الحاسوب</td><td>١٢٠</td></tr><tr><td>ساعات العمل أسبوعياً</td><td>٩٠</td></tr></tbody></table>
<p class="tags">الوسوم: <a href="/tag/maktabat">مكتبات</a>، <a href="/tag/thaqafa">ثقافة</a>، <a href="/tag/alwaha">مدينة الواحة</a></p>
<div class="share">شارك: <a href="https://chirp.example/share?url=${encodeURIComponent(url)}">تشيرب</a> | <a href="https://facegram.example/share?u=${encodeURIComponent(url)}">فيسغرام</a> | <a href="whatsapp://send?text=${encodeURIComponent(url)}">واتساب</a></div>
</article>
<section class="related"><h2>أخبار ذات صلة</h2><ul>${related.map((r) => `<li><a href="/culture/${rng.int(10000, 99999)}">${r}</a></li>`).join('')}</ul></section>
<section class="comments"><h2>التعليقات (${rng.int(3, 40)})</h2><ol><li><strong>أبو فيصل</strong>: خطوة رائعة، نتمنى مكتبات مثلها في كل الأحياء.</li><li><strong>نورة</strong>: هل يوجد موقف للسيارات قريب من المبنى؟</li><li><strong>سامي ك.</strong>: زرتها اليوم مع أولادي، قسم الأطفال ممتاز.</li></ol></section>
</main>
<footer class="site-footer"><ul><li><a href="/about">من نحن</a></li><li><a href="/contact">اتصل بنا</a></li><li><a href="/privacy">سياسة الخصوصية</a></li><li><a href="/terms">الشروط والأحكام</a></li><li><a href="/advertise">أعلن معنا</a></li></ul><p>جميع الحقوق محفوظة © ٢٠٢٥ أخبار الواحة</p></footer>
${cookieBanner('أخبار الواحة')}
</body>`;
    return `<!DOCTYPE html>\n<html lang="ar" dir="rtl">\n<head>\n${head}\n</head>\n${body}\n</html>\n`;
  },
};

export const japaneseShiftJis: PageSpec = {
  name: 'japanese-shift-jis',
  url: 'https://www.tsukimigahara-onsen.example/news/2025/spring-plan.html',
  contentType: 'text/html',
  encoding: 'shift_jis',
  title: 'Japanese page stored as Shift_JIS bytes, declared only by `<meta charset="Shift_JIS">`',
  description:
    'The news page of a small hot-spring inn, in the style of long-lived Japanese sites: the body is real Shift_JIS bytes and the only declaration of the encoding is `<meta charset="Shift_JIS">` (the Content-Type header has no charset, see document.json). It has a table-based header, full-width punctuation and digits, half-width katakana, a price table in yen, an access section, and a footer with a copyright line.',
  exercises: [
    'encoding sniffing: no BOM, no charset in the header, `<meta charset="Shift_JIS">` in the first 1024 bytes; decoding must give Japanese text, not mojibake',
    'double-byte characters whose second byte is 0x5C (表, 予, 十) — a classic trap for naive decoders',
    'half-width katakana (single bytes 0xA1–0xDF) and full-width digits and punctuation; the wave dash and full-width minus are avoided on purpose because decoders map them differently (U+301C or U+FF5E)',
    'CJK text without spaces between words (word counts and text wrapping)',
  ],
  build() {
    const head = `<meta charset="Shift_JIS">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>春の早割プランのご案内｜月見ヶ原温泉 旅館 湯けむり亭</title>
<meta name="description" content="月見ヶ原温泉の旅館「湯けむり亭」からのお知らせ。春の早割プランを４月１日から５月３１日まで販売します。露天風呂付き客室も対象です。">
<meta name="keywords" content="月見ヶ原温泉,旅館,露天風呂,早割,春">
<link rel="canonical" href="https://www.tsukimigahara-onsen.example/news/2025/spring-plan.html">
<meta property="og:title" content="春の早割プランのご案内｜湯けむり亭">
<meta property="og:type" content="article">
<meta property="og:url" content="https://www.tsukimigahara-onsen.example/news/2025/spring-plan.html">
<meta property="og:image" content="https://www.tsukimigahara-onsen.example/img/og/spring2025.jpg">
<meta property="og:site_name" content="月見ヶ原温泉 湯けむり亭">
<meta property="og:locale" content="ja_JP">
<meta name="twitter:card" content="summary_large_image">
<link rel="stylesheet" href="../../css/style.css" type="text/css">
<link rel="shortcut icon" href="../../favicon.ico">
<script type="text/javascript" src="../../js/jquery-1.12.4.min.js"></script>
<script type="text/javascript" src="../../js/common.js"></script>`;
    const plans = [
      ['本館和室（１０畳）', '１３，２００円', '１１，８００円'],
      ['露天風呂付き客室「月」', '２４，２００円', '２１，０００円'],
      ['露天風呂付き客室「花」', '２６，４００円', '２２，９００円'],
      ['特別室「雪見」', '３３，０００円', '２８，６００円'],
    ];
    const news = [
      ['2025.03.10', '春の早割プランの予約受付を開始しました'],
      ['2025.02.20', '貸切風呂「十六夜」の改装工事が完了しました'],
      ['2025.01.15', '冬季限定「ぼたん鍋」会席のご案内'],
      ['2024.12.01', '年末年始の営業についてのお知らせ'],
      ['2024.11.05', 'ﾎｰﾑﾍﾟｰｼﾞをリニューアルしました'],
    ];
    const body = `<body>
<div id="wrapper">
<table id="header" width="100%" border="0" cellspacing="0" cellpadding="0"><tr>
<td width="300"><a href="../../index.html"><img src="../../img/logo.gif" alt="月見ヶ原温泉 湯けむり亭" width="280" height="60" border="0"></a></td>
<td align="right" class="tel">ご予約・お問い合わせ<br><strong>ＴＥＬ　０１２３-４５-６７８９</strong><br>（受付時間　９：００から２０：００まで）</td>
</tr></table>
<ul id="gnavi">
<li><a href="../../index.html">ホーム</a></li>
<li><a href="../../room/index.html">客室</a></li>
<li><a href="../../onsen/index.html">温泉・露天風呂</a></li>
<li><a href="../../cuisine/index.html">お料理</a></li>
<li><a href="../../plan/index.html">宿泊プラン</a></li>
<li><a href="../../access/index.html">アクセス</a></li>
<li><a href="../index.html">お知らせ</a></li>
<li><a href="https://reserve.tsukimigahara-onsen.example/">ご予約</a></li>
</ul>
<div id="pankuzu"><a href="../../index.html">ホーム</a> ＞ <a href="../index.html">お知らせ</a> ＞ 春の早割プランのご案内</div>
<div id="contents">
<div id="main">
<h1>春の早割プランのご案内</h1>
<p class="date">掲載日：２０２５年３月１０日</p>
<p>いつも湯けむり亭をご利用いただき、誠にありがとうございます。</p>
<p>月見ヶ原の山々が新緑に包まれる季節に合わせ、「春の早割プラン」をご用意いたしました。宿泊日の３０日前までにご予約いただくと、通常料金より最大１３％お得にご宿泊いただけます。</p>
<p>対象期間は<strong>２０２５年４月１日（火）から５月３１日（土）まで</strong>のご宿泊です。ただし、ゴールデンウィーク期間（４月２６日から５月６日まで）は対象外となりますので、予めご了承ください。</p>
<h2>料金表（お一人様・１泊２食付き・税込）</h2>
<table class="price" border="1" cellspacing="0" cellpadding="6">
<tr><th>客室</th><th>通常料金</th><th>早割料金</th></tr>
${plans.map(([r, a, b]) => `<tr><td>${r}</td><td align="right">${a}</td><td align="right"><font color="#cc0000"><b>${b}</b></font></td></tr>`).join('\n')}
</table>
<p class="note">※２名様１室ご利用時のお一人様料金です。<br>※入湯税（１５０円）は別途頂戴いたします。<br>※小学生のお子様は大人料金の７０％となります。</p>
<h2>プランの特典</h2>
<ol>
<li>貸切風呂「十六夜」を４５分間無料でご利用いただけます（通常２，２００円）。</li>
<li>夕食に地元の山菜を使った「春の八寸」を一品追加いたします。</li>
<li>チェックアウトを１１時まで延長できます。</li>
</ol>
<h2>ご予約方法</h2>
<p>お電話またはインターネット予約からお申し込みください。インターネットからのご予約はﾎﾟｲﾝﾄが２倍になります。</p>
<p class="btn"><a href="https://reserve.tsukimigahara-onsen.example/plan/spring2025">このプランを予約する</a></p>
<h2>アクセス</h2>
<p>〒１２３-４５６７　○○県月見ヶ原町湯元２-１０<br>電車：月見ヶ原駅より送迎バスで約１５分（要予約）<br>お車：月見ヶ原インターより約２０分。駐車場３０台（無料）</p>
</div>
<div id="side">
<h3>新着情報</h3>
<dl>
${news.map(([d, t]) => `<dt>${d}</dt><dd><a href="#">${t}</a></dd>`).join('\n')}
</dl>
<h3>ご予約はこちら</h3>
<p><a href="https://reserve.tsukimigahara-onsen.example/"><img src="../../img/bnr_reserve.gif" alt="ネット予約" width="200" height="60" border="0"></a></p>
<p><a href="../../faq/index.html"><img src="../../img/bnr_faq.gif" alt="よくあるご質問" width="200" height="60" border="0"></a></p>
</div>
</div>
<div id="footer">
<p><a href="../../company/index.html">会社概要</a>｜<a href="../../privacy/index.html">個人情報保護方針</a>｜<a href="../../sitemap.html">サイトマップ</a>｜<a href="../../contact/index.html">お問い合わせ</a></p>
<p>月見ヶ原温泉 旅館 湯けむり亭　〒１２３-４５６７　○○県月見ヶ原町湯元２-１０　ＴＥＬ ０１２３-４５-６７８９</p>
<address>Copyright (C) 2025 Yukemuritei. All Rights Reserved.</address>
</div>
</div>
<script type="text/javascript">
$(function(){ $('#gnavi li a').hover(function(){ $(this).addClass('on'); }, function(){ $(this).removeClass('on'); }); });
</script>
</body>`;
    return `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">\n<html lang="ja">\n<head>\n${head}\n</head>\n${body}\n</html>\n`;
  },
};

export const chineseUtf8: PageSpec = {
  name: 'chinese-utf8',
  url: 'https://blog.mazhiyuan.example/posts/node-charset-decoding',
  contentType: 'text/html; charset=utf-8',
  title: 'Simplified-Chinese technical blog post in UTF-8 with code blocks and mixed scripts',
  description:
    'A Chinese developer’s blog post about decoding legacy character encodings in Node.js: `<html lang="zh-CN">`, Chinese navigation, full-width punctuation (，。：“”《》), Chinese text mixed with English identifiers and numbers, code blocks with `language-js` and `language-bash`, a comparison table, a table of contents, reward/QR-code widgets, comments and a registration-number footer typical of sites in mainland China.',
  exercises: [
    'UTF-8 CJK text without spaces; mixed CJK/Latin runs inside sentences',
    'code blocks containing Chinese comments',
    'full-width punctuation and brackets; `lang="zh-CN"`; og:locale zh_CN',
  ],
  build(rng: Rng) {
    const url = this.url;
    const title = '在 Node.js 中正确解码 GBK、Shift_JIS 等旧编码网页';
    const description =
      '抓取网页时经常遇到乱码。本文介绍浏览器的编码探测顺序，以及如何在 Node.js 中用 TextDecoder 正确解码 GBK、Big5 和 Shift_JIS 页面。';
    const head = standardHead({
      title: `${title} | 马致远的技术博客`,
      description,
      canonical: url,
      siteName: '马致远的技术博客',
      image: 'https://blog.mazhiyuan.example/images/charset-cover.png',
      ogType: 'article',
      locale: 'zh_CN',
      author: '马致远',
      keywords: 'Node.js,编码,GBK,Shift_JIS,TextDecoder,乱码',
      extra: `<meta property="article:published_time" content="2025-01-08T20:15:00+08:00">\n${jsonLd({ '@context': 'https://schema.org', '@type': 'BlogPosting', headline: title, description, inLanguage: 'zh-CN', datePublished: '2025-01-08T20:15:00+08:00', author: { '@type': 'Person', name: '马致远' } })}`,
      css: 'body{font-family:"PingFang SC","Microsoft YaHei",sans-serif;line-height:1.8}pre{background:#f6f8fa;padding:1rem;overflow:auto}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.4rem .8rem}',
      assets:
        '<link rel="stylesheet" href="/css/main.css">\n<script src="/js/prism.js" defer></script>',
    });
    const code1 = `// 读取原始字节，不要先转成字符串
const res = await fetch(url);
const bytes = new Uint8Array(await res.arrayBuffer());

// 从 Content-Type 中取出 charset（可能没有）
const header = res.headers.get('content-type') ?? '';
const charset = /charset=([^;]+)/i.exec(header)?.[1]?.trim() ?? 'utf-8';

// Node 自带完整 ICU 时，TextDecoder 支持 gbk、big5、shift_jis
const text = new TextDecoder(charset).decode(bytes);
console.log(text.slice(0, 200));`;
    const code2 = `$ node -e "console.log(new TextDecoder('gbk').decode(Buffer.from([0xc4,0xe3,0xba,0xc3])))"
你好`;
    const toc = ['为什么会乱码', '浏览器的探测顺序', '在 Node.js 中解码', '常见编码对照', '小结'];
    const table = [
      ['GBK / GB18030', '简体中文', '是', '不是严格的 GB2312 超集，按 GB18030 解码最稳妥'],
      ['Big5', '繁体中文', '是', '香港增补字符集（HKSCS）需要额外处理'],
      ['Shift_JIS', '日语', '是', '第二字节可能是 0x5C（反斜杠）'],
      ['EUC-KR', '韩语', '是', 'WHATWG 中等同于 windows-949'],
      ['windows-1252', '西欧语言', '是', 'ISO-8859-1 的标签也按它解码'],
    ];
    const comments = [
      ['小林', '写得很清楚！之前一直用 iconv-lite，原来 TextDecoder 就够了。'],
      ['dev_zhou', '请问 meta 标签里的 charset 和 HTTP 头冲突时以哪个为准？'],
      ['马致远', '以 HTTP 头为准（BOM 优先级最高），文中第二节有说明。'],
      ['Ying', '收藏了，感谢分享 👍'],
    ] as const;
    const body = `<body>
<header class="header"><div class="container"><a class="logo" href="/">马致远的技术博客</a>
<nav class="menu"><a href="/">首页</a><a href="/archives">归档</a><a href="/categories">分类</a><a href="/tags">标签</a><a href="/about">关于</a><a href="/links">友链</a><a href="/atom.xml">订阅</a></nav>
<form class="search" action="/search"><input type="search" name="q" placeholder="搜索文章…"></form></div></header>
<main class="container"><article class="post">
<h1 class="post-title">${title}</h1>
<div class="post-meta">发表于 <time datetime="2025-01-08T20:15:00+08:00">2025-01-08</time> · 分类于 <a href="/categories/nodejs">Node.js</a> · 阅读次数 ${rng.int(1000, 9000)} · 本文字数 3.2k · 阅读时长 ≈ 8 分钟</div>
<nav class="post-toc"><strong>目录</strong><ol>${toc.map((t, i) => `<li><a href="#s${i + 1}">${i + 1}. ${t}</a></li>`).join('')}</ol></nav>
<div class="post-body">
<p>写爬虫的同学大概都见过这样的文字：“ä½ å¥½”或者“ÄãºÃ”。它们不是加密，而是<strong>用错了编码</strong>：网页本身是 GBK，却被当成 UTF-8（或者反过来）解码了。</p>
<h2 id="s1">为什么会乱码</h2>
<p>HTTP 响应体本质上是一串字节。要把字节变成文字，必须知道它使用哪种编码。现在绝大多数网站使用 UTF-8，但仍有不少政府网站、老论坛和日本的个人网站使用 GBK、Big5 或 Shift_JIS。</p>
<blockquote><p>如果你先用 <code>res.text()</code> 把响应转成字符串，再去“修复”乱码，信息已经丢失了。正确的做法是拿到原始字节后再决定如何解码。</p></blockquote>
<h2 id="s2">浏览器的探测顺序</h2>
<p>按照 WHATWG 的《Encoding》标准，浏览器按下面的顺序决定编码：</p>
<ol><li>字节顺序标记（BOM）；</li><li>HTTP 头 <code>Content-Type</code> 中的 <code>charset</code>；</li><li>文档前 1024 个字节里的 <code>&lt;meta charset&gt;</code> 或 <code>http-equiv</code>；</li><li>都没有时根据语言环境猜测，中文环境下通常是 GBK。</li></ol>
<h2 id="s3">在 Node.js 中解码</h2>
<p>从 Node.js 13 起默认带完整 ICU，<code>TextDecoder</code> 可以直接解码常见的旧编码：</p>
<pre><code class="language-js">${esc(code1)}</code></pre>
<p>在命令行里快速验证：</p>
<pre><code class="language-bash">${esc(code2)}</code></pre>
<h2 id="s4">常见编码对照</h2>
<table><thead><tr><th>编码</th><th>语言</th><th>TextDecoder 支持</th><th>注意事项</th></tr></thead><tbody>${table.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>
<h2 id="s5">小结</h2>
<p>记住三点：保留原始字节；按照 BOM → HTTP 头 → meta 的顺序判断编码；用 <code>TextDecoder</code> 解码，遇到无法识别的标签时回退到 windows-1252 或 UTF-8。完整示例代码放在 <a href="https://codehub.example/mazhiyuan/charset-demo">charset-demo</a> 仓库里，欢迎提 Issue。</p>
</div>
<div class="post-copyright"><p><strong>本文作者：</strong>马致远</p><p><strong>本文链接：</strong><a href="${url}">${url}</a></p><p><strong>版权声明：</strong>本博客所有文章除特别声明外，均采用 CC BY-NC-SA 4.0 许可协议。转载请注明出处！</p></div>
<div class="reward"><button>赞赏</button><div class="qr" hidden><img src="/images/wechat-qr.png" alt="微信支付" width="160" height="160"><img src="/images/alipay-qr.png" alt="支付宝" width="160" height="160"></div></div>
<div class="post-tags"><a href="/tags/nodejs">#Node.js</a> <a href="/tags/encoding">#编码</a> <a href="/tags/crawler">#爬虫</a></div>
<nav class="post-nav"><a href="/posts/http-keepalive" rel="prev">‹ HTTP Keep-Alive 的那些坑</a> <a href="/posts/puppeteer-memory" rel="next">Puppeteer 内存泄漏排查记录 ›</a></nav>
</article>
<section class="comments"><h3>评论（${comments.length}）</h3>${comments.map(([n, t]) => `<div class="comment"><span class="nick">${esc(n)}</span><p>${esc(t)}</p></div>`).join('')}<form><textarea placeholder="说点什么吧…"></textarea><button>提交</button></form></section>
</main>
<footer class="footer"><p>© 2019 – 2025 马致远 · 由静态博客生成器强力驱动</p><p><a href="https://beian.example/">京ICP备00000000号-1</a></p><p>本站总访问量 ${rng.int(100000, 999999)} 次</p></footer>
</body>`;
    return `<!DOCTYPE html>\n<html lang="zh-CN">\n<head>\n${head}\n</head>\n${body}\n</html>\n`;
  },
};

export const windows1252French: PageSpec = {
  name: 'windows-1252-french',
  url: 'http://www.echo-du-val.example/actualites/2025/fete-de-la-chataigne.php',
  contentType: 'text/html; charset=windows-1252',
  encoding: 'windows-1252',
  title: 'French regional news page in windows-1252, declared only by the Content-Type header',
  description:
    'An article from a small French regional news site running an old PHP CMS: the body is windows-1252 bytes and the encoding is declared only in the HTTP `Content-Type` header (there is no `<meta charset>`). The text is full of accented letters and of the characters that exist in windows-1252 but not in ISO-8859-1 (€, “ ”, ‘ ’, –, —, …, œ, Œ, Ÿ), plus French typography (« guillemets » and numbers with non-breaking spaces).',
  exercises: [
    'decoding by the transport charset only; bytes 0x80–0x9F must become € “ ” ’ – — … œ, not C1 controls',
    'non-breaking spaces (0xA0) inside « guillemets » and in numbers (20 000, 4 €), as French typography requires',
    'an http:// URL (no TLS), an old table-free but div-heavy layout, a `<marquee>` flash-news ticker',
  ],
  build(rng: Rng) {
    const nb = '\u00a0';
    const q = (t: string) => `«${nb}${t}${nb}»`;
    const paras = [
      `Plus de 20${nb}000 visiteurs se sont pressés ce week-end dans les ruelles de Montclar-sur-Vèze pour la 31<sup>e</sup> Fête de la châtaigne, un record selon le comité des fêtes. Sous un soleil d’automne inespéré, les stands ont écoulé près de huit tonnes de châtaignes grillées, vendues 4${nb}€ le cornet.`,
      `${q('On n’avait jamais vu autant de monde, même avant la pandémie')}, s’enthousiasme Éliane Rouvière, présidente du comité. Les bénévoles — une centaine cette année — ont dû rouvrir le parking de la coopérative dès 10${nb}h le dimanche.`,
      `Au programme, les incontournables : démonstration de décorticage à l’ancienne, concours de la plus grosse châtaigne (remporté par un fruit de 41${nb}grammes), marché de producteurs et bal occitan sur la place de l’Église. Les enfants se sont pressés autour de l’atelier “crème de marrons maison”.`,
      `Nouveauté 2025 : un parcours pédagogique de 3,5${nb}km à travers la châtaigneraie communale, balisé par l’Office national des forêts. Les visiteurs y découvraient les variétés locales — la “Bouche rouge”, la “Pellegrine” — et les menaces qui pèsent sur les vergers, du cynips à la maladie de l’encre.`,
      `Côté gastronomie, le chef étoilé Gaëtan Lœuillet a proposé une soupe de châtaignes au foie gras et un moelleux aux marrons qui ont fait l’unanimité. ${q('La châtaigne, c’est le pain des pauvres devenu produit de luxe… il faut la respecter')}, glisse-t-il entre deux services.`,
      'Seule ombre au tableau : la circulation. Des bouchons de plus de deux kilomètres se sont formés sur la départementale 27 samedi après-midi. La mairie promet des navettes gratuites depuis Saint-Régis dès l’an prochain.',
      `Les bénéfices de la fête (environ 38${nb}500${nb}€) financeront la restauration du four banal du hameau d’Œillères et l’achat de plants pour replanter une parcelle détruite par la tempête de l’hiver dernier.`,
    ];
    const head = `<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Montclar-sur-Vèze : la Fête de la châtaigne bat son record d’affluence - L’Écho du Val</title>
<meta name="description" content="Plus de 20 000 visiteurs ont participé ce week-end à la 31e Fête de la châtaigne de Montclar-sur-Vèze. Un record pour le comité des fêtes.">
<meta name="keywords" content="Montclar-sur-Vèze, fête de la châtaigne, châtaigneraie, Vèze, événement, automne">
<meta name="author" content="Rédaction de L’Écho du Val">
<meta property="og:title" content="Montclar-sur-Vèze : la Fête de la châtaigne bat son record d’affluence">
<meta property="og:description" content="Plus de 20 000 visiteurs, huit tonnes de châtaignes grillées et un parcours pédagogique inédit.">
<meta property="og:image" content="http://www.echo-du-val.example/photos/2025/10/chataignes-grillees.jpg">
<meta property="og:url" content="http://www.echo-du-val.example/actualites/2025/fete-de-la-chataigne.php">
<meta property="og:type" content="article">
<meta property="og:locale" content="fr_FR">
<meta property="og:site_name" content="L’Écho du Val">
<meta name="twitter:card" content="summary_large_image">
<link rel="canonical" href="http://www.echo-du-val.example/actualites/2025/fete-de-la-chataigne.php">
<link rel="shortcut icon" href="/favicon.ico">
<link rel="stylesheet" type="text/css" href="/styles/echo.css?v=2014">
<script type="text/javascript" src="/js/jquery-1.8.3.min.js"></script>
<script type="text/javascript">var _paq = _paq || []; _paq.push(['trackPageView']); _paq.push(['setSiteId', '${rng.int(1, 40)}']);</script>`;
    const rubriques = [
      'Accueil',
      'Actualités',
      'Sports',
      'Économie',
      'Culture & loisirs',
      'Vie des communes',
      'Agenda',
      'Petites annonces',
      'Nécrologie',
      'Météo',
    ];
    const agenda = [
      ['Sam. 18 oct.', 'Foire aux champignons', 'Saint-Régis'],
      ['Dim. 19 oct.', 'Randonnée “Les crêtes de la Vèze” (12 km)', 'Montclar-sur-Vèze'],
      ['Ven. 24 oct.', 'Théâtre : “Le Médecin malgré lui”', 'Salle des fêtes de Lavergne'],
      ['Sam. 25 oct.', 'Bourse aux jouets', 'Gymnase d’Œillères'],
    ];
    const body = `<body>
<div id="page">
<div id="entete"><a href="/"><img src="/images/logo-echo.gif" alt="L’Écho du Val – l’actualité de la vallée de la Vèze" width="320" height="70"></a>
<div id="date-du-jour">Lundi 13 octobre 2025 – Sainte Géraldine</div>
<div id="meteo">Montclar : 14°C, éclaircies</div></div>
<div id="menu"><ul>${rubriques.map((r) => `<li><a href="/${slug(r)}/">${r}</a></li>`).join('')}</ul></div>
<div id="flash"><b>Flash info :</b> <marquee scrollamount="3">Coupure d’électricité prévue mardi à Lavergne de 8 h 30 à 12 h — Le marché de Saint-Régis déplacé place du Foirail — Résultats du cross des écoles en page Sports…</marquee></div>
<div id="colonne-gauche">
<div class="fil-ariane"><a href="/">Accueil</a> &gt; <a href="/actualites/">Actualités</a> &gt; Vie des communes</div>
<div class="article">
<h1>Montclar-sur-Vèze : la Fête de la châtaigne bat son record d’affluence</h1>
<div class="signature">Par <b>Bernard Costes</b> – publié le 13/10/2025 à 07h45 – mis à jour à 09h12</div>
<div class="chapo">Plus de 20${nb}000 visiteurs, huit tonnes de châtaignes grillées, un parcours pédagogique inédit… La 31<sup>e</sup> édition restera dans les annales.</div>
<div class="photo"><img src="/photos/2025/10/chataignes-grillees.jpg" width="480" height="320" alt="Des châtaignes grillées dans une poêle trouée au-dessus d’un feu de bois"><div class="legende">Les grilleurs de l’association “Lous Castanhaires” n’ont pas chômé. (Photo É. R.)</div></div>
${paras.map((t) => `<p>${t}</p>`).join('\n')}
<div class="encadre"><h3>En chiffres</h3><ul><li>20${nb}000 visiteurs (16${nb}500 en 2024)</li><li>8 tonnes de châtaignes</li><li>112 exposants</li><li>4${nb}€ le cornet — 7${nb}€ les deux</li></ul></div>
<p class="reagir"><a href="/reagir.php?id=${rng.int(20000, 29999)}">Réagir à cet article</a> | <a href="javascript:window.print()">Imprimer</a> | <a href="/envoyer.php?id=${rng.int(20000, 29999)}">Envoyer à un ami</a></p>
</div>
<div class="commentaires"><h3>Vos réactions (3)</h3>
<div class="comm"><b>Jeannot43</b> – 13/10/2025 08:12<br>Superbe fête comme chaque année, mais quelle galère pour se garer !</div>
<div class="comm"><b>Marie-Thérèse</b> – 13/10/2025 08:40<br>Bravo aux bénévoles. Le moelleux aux marrons était divin…</div>
<div class="comm"><b>un Montclarois</b> – 13/10/2025 09:05<br>Et les riverains, on y pense ? Trois jours de bruit et de voitures partout.</div>
</div>
</div>
<div id="colonne-droite">
<div class="bloc"><h3>Agenda de la vallée</h3><table class="agenda">${agenda.map(([d, e, l]) => `<tr><td class="jour">${d}</td><td>${e}<br><i>${l}</i></td></tr>`).join('')}</table><a href="/agenda/">Tout l’agenda »</a></div>
<div class="bloc pub"><a href="http://www.credit-vallee.example/"><img src="/pub/credit-vallee-300x250.gif" width="300" height="250" alt="Publicité"></a></div>
<div class="bloc"><h3>Les plus lus</h3><ol><li><a href="/sports/rugby-lavergne.php">Rugby : Lavergne s’impose dans le derby</a></li><li><a href="/actualites/pont-de-la-veze.php">Pont de la Vèze : les travaux débutent en novembre</a></li><li><a href="/actualites/ecole-oeilleres.php">École d’Œillères : une classe sauvée</a></li><li><a href="/economie/fromagerie.php">La fromagerie Ÿvonne &amp; fils recrute</a></li></ol></div>
</div>
<div id="pied"><a href="/contact.php">Contact</a> – <a href="/mentions-legales.php">Mentions légales</a> – <a href="/abonnement.php">S’abonner à l’édition papier</a> – <a href="/rss.php">Flux RSS</a><br>© L’Écho du Val 1998-2025 – Reproduction interdite sans autorisation</div>
</div>
</body>`;
    return `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">\n<html lang="fr">\n<head>\n${head}\n</head>\n${body}\n</html>\n`;
  },
};
