import type { Rng } from '../prng.js';
import { esc, jsonLd, type PageSpec, slug } from './kit.js';

export const legacyTableLayout: PageSpec = {
  name: 'legacy-table-layout',
  url: 'http://www.tricountyrailroaders.example/meets.htm',
  contentType: 'text/html; charset=iso-8859-1',
  title: 'Late-1990s club home page laid out with nested tables, `<font>` and `<center>`',
  description:
    'A hobby club’s page as it was built around 1999 and never redesigned: HTML 4.01 Transitional doctype, upper-case tags, unquoted attributes, a 760-pixel outer layout table with a navigation column of image buttons, tables nested three deep, `<font face size color>`, `<center>`, `<marquee>`, spacer GIFs, an image map, a hit counter, a web-ring bar, unclosed `<p>` and `<li>` elements, and a real data table (the meeting schedule) sitting inside the layout tables.',
  exercises: [
    'layout tables versus the one data table nested inside them',
    'presentational markup: `<font>`, `<center>`, `<b>`, `<i>`, `<u>`, `<blink>`, `<marquee>`, `bgcolor`',
    'sloppy but common markup: unclosed `<p>`/`<li>`, upper-case tags, unquoted attributes, entities such as `&eacute;` and `&nbsp;`',
    '`<map>`/`<area>` links and `<img usemap>`',
  ],
  build(rng: Rng) {
    const meets = [
      [
        'Jan 11',
        'Annual business meeting &amp; elections',
        'Grange Hall, Millbrook',
        'Pot-luck lunch after',
      ],
      [
        'Feb 8',
        'Clinic: weathering freight cars with chalks',
        'Grange Hall, Millbrook',
        'Bring a car!',
      ],
      ['Mar 8', 'Operating session on the HO layout', 'Club rooms, Depot St.', 'Members only'],
      ['Apr 12', 'Swap meet', 'Fairgrounds Bldg. 4', '$2 admission, tables $10'],
      ['May 10', 'Field trip: Cedar Valley Scenic Rwy.', 'Meet at 8:00 AM', 'Car pool'],
      ['Jun 14', 'Open house &amp; garden railway tour', 'Various', 'Public welcome'],
      ['Jul 12', 'No meeting (summer break)', '&nbsp;', '&nbsp;'],
      ['Sep 13', 'Clinic: DCC decoders for beginners', 'Club rooms, Depot St.', '&nbsp;'],
      ['Oct 11', 'Operating session', 'Club rooms, Depot St.', 'Members only'],
      ['Nov 8', 'Train show setup', 'Fairgrounds Bldg. 4', 'Volunteers needed!!'],
      ['Nov 15-16', '<B>23rd ANNUAL TRAIN SHOW</B>', 'Fairgrounds Bldg. 4', 'See flyer'],
      ['Dec 13', 'Christmas party', 'Rosa&#39;s Trattoria', 'RSVP to Doris'],
    ];
    const nav = [
      'Home',
      'About Us',
      'Meetings',
      'Our Layout',
      'Photo Gallery',
      'Train Show',
      'Links',
      'Guestbook',
      'Join!',
    ];
    const links = [
      'N Scale Railroading Page',
      'The Caboose Corner',
      'Steam Locomotive Archive',
      'Model RR Tips & Tricks',
      'Hobby Shop Directory',
      'Short Line Historical Society',
      'Brass Models Price Guide',
      'DCC Wiring FAQ',
    ];
    const navCells = nav
      .map(
        (n) =>
          `<TR><TD><A HREF="${slug(n) || 'index'}.htm" onMouseOver="document.images['b_${slug(n)}'].src='img/btn_${slug(n)}_on.gif'" onMouseOut="document.images['b_${slug(n)}'].src='img/btn_${slug(n)}.gif'"><IMG NAME="b_${slug(n)}" SRC="img/btn_${slug(n)}.gif" WIDTH=140 HEIGHT=28 BORDER=0 ALT="${esc(n)}"></A></TD></TR>`,
      )
      .join('\n');
    const rows = meets
      .map(
        ([d, what, where, note], i) =>
          `<TR BGCOLOR="${i % 2 ? '#FFFFFF' : '#EEEEDD'}"><TD><FONT FACE="Arial" SIZE=2><B>${d}</B></FONT></TD><TD><FONT FACE="Arial" SIZE=2>${what}</FONT></TD><TD><FONT FACE="Arial" SIZE=2>${where}</FONT></TD><TD><FONT FACE="Arial" SIZE=1 COLOR="#666666">${note}</FONT></TD></TR>`,
      )
      .join('\n');
    return `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">
<HTML>
<HEAD>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=iso-8859-1">
<META NAME="GENERATOR" CONTENT="Microsoft FrontPage 4.0">
<META NAME="keywords" CONTENT="model railroad, model trains, HO scale, N scale, train show, tri-county, club, railroading, DCC, layout">
<META NAME="description" CONTENT="Tri-County Model Railroaders - meeting schedule, train show info and more!">
<TITLE>Tri-County Model Railroaders - Meetings &amp; Events 2025</TITLE>
<LINK REL="SHORTCUT ICON" HREF="favicon.ico">
<SCRIPT LANGUAGE="JavaScript">
<!--
function MM_preloadImages() { var d=document; if(d.images){ if(!d.MM_p) d.MM_p=new Array();
  var i,j=d.MM_p.length,a=MM_preloadImages.arguments; for(i=0; i<a.length; i++)
  if (a[i].indexOf("#")!=0){ d.MM_p[j]=new Image; d.MM_p[j++].src=a[i];}}
}
// -->
</SCRIPT>
<STYLE TYPE="text/css">
<!--
A:link { color: #0000CC } A:visited { color: #660099 } A:hover { color: #CC0000 }
.small { font-family: Verdana, Arial; font-size: 9pt }
-->
</STYLE>
</HEAD>
<BODY BGCOLOR="#FFFFCC" TEXT="#000000" LINK="#0000CC" VLINK="#660099" BACKGROUND="img/bg_tracks.gif" onLoad="MM_preloadImages('img/btn_home_on.gif','img/btn_meetings_on.gif')" TOPMARGIN=0 LEFTMARGIN=0 MARGINWIDTH=0 MARGINHEIGHT=0>
<CENTER>
<TABLE WIDTH=760 BORDER=0 CELLPADDING=0 CELLSPACING=0 BGCOLOR="#FFFFFF">
<TR><TD COLSPAN=3><IMG SRC="img/header_loco.jpg" WIDTH=760 HEIGHT=120 ALT="Tri-County Model Railroaders - Est. 1978" USEMAP="#headermap" BORDER=0>
<MAP NAME="headermap"><AREA SHAPE=RECT COORDS="0,0,300,120" HREF="index.htm" ALT="Home"><AREA SHAPE=RECT COORDS="600,80,760,120" HREF="join.htm" ALT="Join the club"></MAP></TD></TR>
<TR><TD COLSPAN=3 BGCOLOR="#003366"><FONT FACE="Verdana" SIZE=1 COLOR="#FFFFFF">&nbsp;&nbsp;<MARQUEE WIDTH=700 SCROLLAMOUNT=4>*** 23rd ANNUAL TRAIN SHOW NOV 15-16 *** Over 150 tables of trains &amp; accessories *** Operating layouts *** Kids under 12 FREE *** </MARQUEE></FONT></TD></TR>
<TR>
<TD WIDTH=150 VALIGN=TOP BGCOLOR="#CCCC99">
<TABLE BORDER=0 CELLPADDING=5 CELLSPACING=0 WIDTH=150>
${navCells}
<TR><TD><IMG SRC="img/spacer.gif" WIDTH=1 HEIGHT=20></TD></TR>
<TR><TD><CENTER><FONT FACE="Verdana" SIZE=1>You are visitor #<BR><IMG SRC="/cgi-bin/counter.cgi?page=meets&amp;digits=6" WIDTH=90 HEIGHT=20 ALT="counter"></FONT></CENTER></TD></TR>
<TR><TD><CENTER><A HREF="http://www.nmra-region.example/"><IMG SRC="img/member_badge.gif" WIDTH=88 HEIGHT=31 BORDER=0 ALT="Proud member"></A></CENTER></TD></TR>
</TABLE>
</TD>
<TD WIDTH=10><IMG SRC="img/spacer.gif" WIDTH=10 HEIGHT=1></TD>
<TD WIDTH=600 VALIGN=TOP>
<BR>
<CENTER><FONT FACE="Georgia, Times New Roman" SIZE="+2" COLOR="#990000"><B>Meetings &amp; Events for 2025</B></FONT></CENTER>
<P><FONT FACE="Verdana, Arial" SIZE=2>Welcome aboard! The Tri-County Model Railroaders meet on the <B>second Saturday of every month</B> at 10:00 AM. Visitors are ALWAYS welcome at our regular meetings - you don&#39;t need to be a member, just bring your interest in trains. <I>Coffee &amp; donuts provided!</I>
<P><FONT FACE="Verdana, Arial" SIZE=2>Our meetings usually include a short business session, a clinic or presentation, and then an operating session on the club layout. Please check this page before coming as dates sometimes change due to weather.</FONT>
<TABLE WIDTH="100%" BORDER=0 CELLPADDING=0 CELLSPACING=0><TR><TD BGCOLOR="#003366">
<TABLE WIDTH="100%" BORDER=0 CELLPADDING=4 CELLSPACING=1>
<TR BGCOLOR="#003366"><TD><FONT FACE="Arial" SIZE=2 COLOR="#FFFFFF"><B>Date</B></FONT></TD><TD><FONT FACE="Arial" SIZE=2 COLOR="#FFFFFF"><B>Event</B></FONT></TD><TD><FONT FACE="Arial" SIZE=2 COLOR="#FFFFFF"><B>Location</B></FONT></TD><TD><FONT FACE="Arial" SIZE=2 COLOR="#FFFFFF"><B>Notes</B></FONT></TD></TR>
${rows}
</TABLE>
</TD></TR></TABLE>
<P><FONT FACE="Verdana, Arial" SIZE=1>Last updated: <B>March 2, 2025</B> by the webmaster</FONT>
<HR WIDTH="80%" SIZE=1 NOSHADE>
<CENTER><FONT FACE="Georgia" SIZE="+1" COLOR="#003366"><B><U>Directions to the Grange Hall</U></B></FONT></CENTER>
<FONT FACE="Verdana, Arial" SIZE=2>
<UL>
<LI>From Route 9 take exit 14 (Millbrook/Cedar Falls)
<LI>Turn LEFT at the end of the ramp onto County Rd 31
<LI>Go 2.3 miles, the Grange Hall is on the right after the feed store
<LI>Parking in the back - <FONT COLOR="#CC0000"><B>please do NOT park on the grass!!</B></FONT>
</UL>
</FONT>
<TABLE BORDER=1 CELLPADDING=6 CELLSPACING=0 ALIGN=RIGHT WIDTH=220 BGCOLOR="#FFFFEE"><TR><TD><FONT FACE="Verdana" SIZE=1><B>CLUB OFFICERS</B><BR>President: Walt Kowalczyk<BR>Vice Pres.: Doris Amundsen<BR>Treasurer: Ray Ortiz<BR>Webmaster: <A HREF="mailto:webmaster@tricountyrailroaders.example">Gene L.</A></FONT></TD></TR></TABLE>
<P><FONT FACE="Verdana, Arial" SIZE=2><B>Dues</B> are $25 per year ($10 for juniors under 16) and include our monthly newsletter, <I>The Whistle Stop</I>. Dues are payable at the January meeting or by mail to the treasurer. Make checks payable to &quot;Tri-County Model Railroaders&quot;.
<P><FONT FACE="Verdana, Arial" SIZE=2>Interested in joining? Fill out our <A HREF="join.htm">membership form</A> or just come to a meeting and talk to any of the officers. We have members in all scales from Z to G and all experience levels - from beginners to guys who have been at it for 50 years!</FONT>
<BR CLEAR=ALL>
<P><CENTER><IMG SRC="img/train_anim.gif" WIDTH=468 HEIGHT=60 ALT="animated train"></CENTER>
<HR WIDTH="80%" SIZE=1 NOSHADE>
<CENTER><FONT FACE="Georgia" SIZE="+1" COLOR="#003366"><B>Favorite Links</B></FONT></CENTER>
<FONT FACE="Verdana, Arial" SIZE=2><UL>
${links.map((l) => `<LI><A HREF="http://www.${slug(l).replace(/-/g, '')}.example/" TARGET="_blank">${esc(l)}</A>`).join('\n')}
</UL></FONT>
<P><CENTER><FONT FACE="Verdana" SIZE=1>[ <A HREF="index.htm">Home</A> | <A HREF="about.htm">About Us</A> | <A HREF="meets.htm">Meetings</A> | <A HREF="layout.htm">Our Layout</A> | <A HREF="gallery.htm">Photos</A> | <A HREF="show.htm">Train Show</A> | <A HREF="links.htm">Links</A> | <A HREF="guestbook.htm">Guestbook</A> ]</FONT></CENTER>
<P><CENTER><TABLE BORDER=1 CELLPADDING=3 CELLSPACING=0 BGCOLOR="#EEEEEE"><TR><TD ALIGN=CENTER><FONT FACE="Arial" SIZE=1>This site is a member of the<BR><B>Model Railroad WebRing</B><BR><A HREF="http://ring.webrings.example/prev?ring=modelrr;id=${rng.int(10, 99)}">&lt;&lt; Prev</A> | <A HREF="http://ring.webrings.example/random?ring=modelrr">Random</A> | <A HREF="http://ring.webrings.example/next?ring=modelrr;id=${rng.int(10, 99)}">Next &gt;&gt;</A></FONT></TD></TR></TABLE></CENTER>
<P><CENTER><FONT FACE="Verdana" SIZE=1 COLOR="#666666">&copy; 1998-2025 Tri-County Model Railroaders. All rights reserved.<BR>Best viewed with Netscape Navigator 4.0 or Internet Explorer 5.0 at 800x600<BR>Caf&eacute; photos courtesy of Ren&eacute;e D.</FONT></CENTER>
<BR>
</TD>
</TR>
</TABLE>
</CENTER>
</BODY>
</HTML>
`;
  },
};

export const ampArticle: PageSpec = {
  name: 'amp-article',
  url: 'https://www.rivertoncourier.example/sport/2025/03/15/rovers-beat-lindholm/amp',
  contentType: 'text/html; charset=utf-8',
  title: 'AMP news article (`<html ⚡>`) with AMP components instead of plain elements',
  description:
    'The AMP version of a match report from the news site used by news-article: `<html ⚡ lang="en">`, the AMP boilerplate style and runtime script, `<style amp-custom>`, `amp-img` instead of `img`, an `amp-carousel` of photos, `amp-ad` slots, `amp-analytics` with a JSON config, `amp-social-share`, `amp-sidebar` navigation, `amp-accordion`, `amp-iframe`, a `rel="canonical"` link to the non-AMP page and a NewsArticle JSON-LD.',
  exercises: [
    'custom elements (`amp-img`, `amp-carousel`, `amp-ad`) where images and ads would normally be; alt text on `amp-img`',
    'the `⚡` attribute on `<html>`; `<noscript>` fallbacks with plain `<img>`',
    'JSON configuration inside `<script type="application/json">` that must not become text',
    'rel=canonical pointing to a different URL than the page itself',
  ],
  build(rng: Rng) {
    const canonical = 'https://www.rivertoncourier.example/sport/2025/03/15/rovers-beat-lindholm';
    const ld = {
      '@context': 'https://schema.org',
      '@type': 'NewsArticle',
      mainEntityOfPage: canonical,
      headline: 'Late Okonjo header sends Rovers past Lindholm in derby thriller',
      datePublished: '2025-03-15T17:12:00+00:00',
      dateModified: '2025-03-15T19:40:00+00:00',
      author: { '@type': 'Person', name: 'Callum Price' },
      publisher: {
        '@type': 'Organization',
        name: 'The Riverton Courier',
        logo: {
          '@type': 'ImageObject',
          url: 'https://www.rivertoncourier.example/static/logo-600x60.png',
          width: 600,
          height: 60,
        },
      },
      image: {
        '@type': 'ImageObject',
        url: 'https://cdn.rivertoncourier.example/images/2025/03/okonjo-header-1200.jpg',
        width: 1200,
        height: 800,
      },
    };
    const img = (src: string, alt: string, w = 1200, h = 800) =>
      `<amp-img src="${src}" width="${w}" height="${h}" layout="responsive" alt="${esc(alt)}"><noscript><img src="${src}" width="${w}" height="${h}" alt="${esc(alt)}"></noscript></amp-img>`;
    const photos = [
      ['okonjo-header', 'Dele Okonjo rises above two defenders to head in the winner'],
      ['crowd-quay-road', 'The home end at Quay Road celebrates the late goal'],
      ['marsh-save', 'Lindholm keeper Tom Marsh saves from close range'],
      ['managers', 'The two managers shake hands before kick-off'],
    ];
    // AMP analytics request URLs hold literal `${name}` placeholders.
    const v = (name: string) => `\${${name}}`;
    const analytics = {
      vars: { account: 'RC-88231' },
      triggers: {
        trackPageview: { on: 'visible', request: 'pageview' },
        trackScroll: {
          on: 'scroll',
          scrollSpec: { verticalBoundaries: [25, 50, 75, 100] },
          request: 'event',
          vars: { eventId: 'scroll' },
        },
      },
      requests: {
        pageview: `https://px.analytics.example/amp?acct=${v('account')}&url=${v('canonicalUrl')}&r=${v('documentReferrer')}`,
        event: `https://px.analytics.example/amp/event?acct=${v('account')}&e=${v('eventId')}`,
      },
    };
    const p = (t: string) => `<p>${t}</p>`;
    const paras = [
      'Dele Okonjo’s header two minutes from time gave Riverton Rovers a 2-1 win over Lindholm Town in a derby that had everything: a disallowed goal, a penalty save and a half-time downpour that left the Quay Road pitch under water.',
      'Lindholm led through Aaron Pike’s 20-yard drive after 14 minutes, and should have been two up when Rovers keeper Sam Whitcombe brought down Jordan Hale. Whitcombe redeemed himself by diving to his left to save Hale’s penalty.',
      'The second half was delayed by 15 minutes while ground staff forked the pitch. When play resumed Rovers were transformed. Connor Bailey equalised on the hour, turning in a low cross from the left, and Okonjo’s winner came from a corner after a goalmouth scramble.',
      'Rovers manager Anna Kirkby said: “At half-time I told them the pitch was the same for both teams. The one thing we could control was our effort, and they gave me everything.”',
      'The win lifts Rovers to fifth, two points off the play-off places, with eight games to play. Lindholm stay 11th.',
    ];
    return `<!doctype html>
<html ⚡ lang="en">
<head>
<meta charset="utf-8">
<script async src="https://cdn.ampproject.org/v0.js"></script>
<script async custom-element="amp-carousel" src="https://cdn.ampproject.org/v0/amp-carousel-0.2.js"></script>
<script async custom-element="amp-ad" src="https://cdn.ampproject.org/v0/amp-ad-0.1.js"></script>
<script async custom-element="amp-analytics" src="https://cdn.ampproject.org/v0/amp-analytics-0.1.js"></script>
<script async custom-element="amp-social-share" src="https://cdn.ampproject.org/v0/amp-social-share-0.1.js"></script>
<script async custom-element="amp-sidebar" src="https://cdn.ampproject.org/v0/amp-sidebar-0.1.js"></script>
<script async custom-element="amp-accordion" src="https://cdn.ampproject.org/v0/amp-accordion-0.1.js"></script>
<script async custom-element="amp-iframe" src="https://cdn.ampproject.org/v0/amp-iframe-0.1.js"></script>
<title>Late Okonjo header sends Rovers past Lindholm in derby thriller | The Riverton Courier</title>
<link rel="canonical" href="${canonical}">
<meta name="viewport" content="width=device-width,minimum-scale=1,initial-scale=1">
<meta name="description" content="Dele Okonjo’s 88th-minute header gave Riverton Rovers a 2-1 derby win over Lindholm Town at a waterlogged Quay Road.">
<meta property="og:type" content="article">
<meta property="og:title" content="Late Okonjo header sends Rovers past Lindholm in derby thriller">
<meta property="og:url" content="${canonical}">
<meta property="og:image" content="https://cdn.rivertoncourier.example/images/2025/03/okonjo-header-1200.jpg">
<meta property="og:site_name" content="The Riverton Courier">
<meta property="article:published_time" content="2025-03-15T17:12:00+00:00">
<meta property="article:section" content="Sport">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:site" content="@rivertoncourier">
${jsonLd(ld)}
<style amp-boilerplate>body{-webkit-animation:-amp-start 8s steps(1,end) 0s 1 normal both;-moz-animation:-amp-start 8s steps(1,end) 0s 1 normal both;animation:-amp-start 8s steps(1,end) 0s 1 normal both}@-webkit-keyframes -amp-start{from{visibility:hidden}to{visibility:visible}}@keyframes -amp-start{from{visibility:hidden}to{visibility:visible}}</style><noscript><style amp-boilerplate>body{-webkit-animation:none;-moz-animation:none;animation:none}</style></noscript>
<style amp-custom>
body{font-family:Georgia,serif;color:#1d1d1f;margin:0}.header{display:flex;align-items:center;justify-content:space-between;padding:.5rem 1rem;border-bottom:4px solid #8b1e3f}
.article{padding:0 1rem;max-width:42rem;margin:auto}h1{font-size:1.9rem;line-height:1.15}.byline{font:.85rem system-ui,sans-serif;color:#555}
.ad{display:block;margin:1.5rem auto;background:#f4f4f6}amp-sidebar{width:260px;background:#fff}.share{display:flex;gap:.5rem}
.scores{width:100%;border-collapse:collapse}.scores td,.scores th{border-bottom:1px solid #ddd;padding:.35rem;text-align:left}
</style>
</head>
<body>
<amp-analytics type="googleanalytics" id="analytics1"><script type="application/json">${JSON.stringify(analytics)}</script></amp-analytics>
<amp-sidebar id="sidebar" layout="nodisplay" side="left"><nav><ul>${['News', 'Sport', 'Rovers', 'Business', 'Opinion', 'Culture', 'Lifestyle', 'Weather', 'Jobs', 'Subscribe'].map((s) => `<li><a href="https://www.rivertoncourier.example/${slug(s)}/">${s}</a></li>`).join('')}</ul></nav></amp-sidebar>
<header class="header"><button on="tap:sidebar.toggle" aria-label="Menu">☰</button><a href="https://www.rivertoncourier.example/"><amp-img src="https://www.rivertoncourier.example/static/logo.png" width="200" height="27" alt="The Riverton Courier"></amp-img></a><a href="https://www.rivertoncourier.example/subscribe">Subscribe</a></header>
<amp-ad width="320" height="50" type="doubleclick" data-slot="/21804/riverton/amp/top" class="ad"><div placeholder>Advertisement</div></amp-ad>
<article class="article">
<p class="kicker"><a href="https://www.rivertoncourier.example/sport/football/">Football</a> · Rovers</p>
<h1>Late Okonjo header sends Rovers past Lindholm in derby thriller</h1>
<p class="byline">By Callum Price · <time datetime="2025-03-15T17:12:00+00:00">Saturday 15 March 2025, 5.12pm</time></p>
<div class="share"><amp-social-share type="email" width="32" height="32"></amp-social-share><amp-social-share type="facebook" data-param-app_id="${rng.int(100000000, 999999999)}" width="32" height="32"></amp-social-share><amp-social-share type="whatsapp" width="32" height="32"></amp-social-share></div>
<amp-carousel width="1200" height="800" layout="responsive" type="slides" role="region" aria-label="Match photos">
${photos.map(([k, alt]) => `<figure>${img(`https://cdn.rivertoncourier.example/images/2025/03/${k}-1200.jpg`, alt as string)}<figcaption>${esc(alt as string)}</figcaption></figure>`).join('\n')}
</amp-carousel>
${paras.slice(0, 2).map(p).join('\n')}
<amp-ad width="300" height="250" type="doubleclick" data-slot="/21804/riverton/amp/mid" class="ad"><div placeholder>Advertisement</div><div fallback>Thanks for supporting local journalism.</div></amp-ad>
${paras.slice(2).map(p).join('\n')}
<h2>Match facts</h2>
<table class="scores"><tr><th>Team</th><th>Goals</th></tr><tr><td>Riverton Rovers</td><td>Bailey 61, Okonjo 88</td></tr><tr><td>Lindholm Town</td><td>Pike 14</td></tr></table>
<p>Attendance: 11,482. Referee: Marcus Lyle.</p>
<amp-accordion><section><h3>Rovers line-up</h3><p>Whitcombe; Doyle, Evans, Mensah, Clarke; Bailey, Ward (Ross 70), Novak; Hughes, Okonjo, Lee (Patel 77).</p></section><section><h3>Lindholm line-up</h3><p>Marsh; Owens, Frost, Adeyemi, Kerr; Pike, Dunn, Rossi (Watts 80); Hale, Byrne, Carter.</p></section></amp-accordion>
<amp-iframe width="600" height="340" layout="responsive" sandbox="allow-scripts allow-same-origin" src="https://video.rivertoncourier.example/embed/rovers-lindholm-highlights" title="Match highlights"><amp-img placeholder layout="fill" src="https://cdn.rivertoncourier.example/images/2025/03/highlights-poster.jpg" alt="Highlights video"></amp-img></amp-iframe>
<p><a href="${canonical}#comments">Read comments on the full site</a></p>
</article>
<footer><p><a href="https://www.rivertoncourier.example/">The Riverton Courier</a> · <a href="https://www.rivertoncourier.example/privacy">Privacy</a> · <a href="https://www.rivertoncourier.example/terms">Terms</a></p><p>© 2025 The Riverton Courier</p></footer>
</body>
</html>
`;
  },
};
