import type { Rng } from '../prng.js';
import { esc, type PageSpec } from './kit.js';

/** `[[Target]]`, `[[Target|label]]` and `[[!Missing]]` (a red link) to wiki anchors. */
function wikify(text: string): string {
  return text.replace(
    /\[\[(!?)([^\]|]+)(?:\|([^\]]+))?\]\]/g,
    (_m, red: string, target: string, label?: string) => {
      const title = target.trim();
      const path = title.replace(/ /g, '_');
      if (red) {
        return `<a href="/w/index.php?title=${encodeURIComponent(path)}&amp;action=edit&amp;redlink=1" class="new" title="${esc(title)} (page does not exist)">${esc(label ?? title)}</a>`;
      }
      return `<a href="/wiki/${encodeURIComponent(path).replace(/%2F/g, '/')}" title="${esc(title)}">${esc(label ?? title)}</a>`;
    },
  );
}

function cite(n: number): string {
  return `<sup id="cite_ref-${n}" class="reference"><a href="#cite_note-${n}"><span class="cite-bracket">[</span>${n}<span class="cite-bracket">]</span></a></sup>`;
}

function heading(level: 2 | 3, text: string): string {
  const id = text.replace(/ /g, '_');
  return `<div class="mw-heading mw-heading${level}"><h${level} id="${esc(id)}">${esc(text)}</h${level}><span class="mw-editsection"><span class="mw-editsection-bracket">[</span><a href="/w/index.php?title=Portlow&amp;action=edit&amp;section=${level}" title="Edit section: ${esc(text)}"><span>edit</span></a><span class="mw-editsection-bracket">]</span></span></div>`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export const wikiArticle: PageSpec = {
  name: 'wiki-article',
  url: 'https://en.openpedia.example/wiki/Portlow',
  contentType: 'text/html; charset=UTF-8',
  title:
    'Encyclopedia article in MediaWiki markup: infobox, sortable tables with spans and hundreds of links',
  description:
    'An encyclopedia article about a fictional port city, in the markup MediaWiki produces: a hatnote, an infobox table (images, coordinates, nested header rows), a table of contents, sections with edit links, citation superscripts, a climate table with rowspan/colspan and colour-coded cells, sortable `wikitable`s (population history, wards with merged cells, sports clubs), a gallery, references, navboxes, categories, interlanguage links and the full site chrome (sidebar, personal tools, page tools). More than 600 links, many of them red links and citation anchors.',
  exercises: [
    'infobox table (`class="infobox"`) with header rows spanning two columns, images and a coordinates microformat',
    'wikitables with `rowspan`/`colspan`, `data-sort-value`, footnote markers, totals rows and a caption',
    'hundreds of links: internal article links, red links (`class="new"`), citation fragment links, external reference links, interlanguage links',
    'navboxes (nested tables of link lists) and a sidebar of site tools that are boilerplate',
    'reference list `<ol class="references">` with `<cite>` elements',
  ],
  build(rng: Rng) {
    let c = 0;
    const ref = () => cite(++c);
    const p = (text: string) =>
      `<p>${wikify(text)}${rng.chance(0.7) ? ref() : ''}${rng.chance(0.3) ? ref() : ''}</p>`;

    const infoboxRows: readonly (readonly [string, string])[] = [
      ['Country', '[[United Kingdom]]'],
      ['Constituent country', '[[England]]'],
      ['Region', '[[!West Country (fictional region)|West Country]]'],
      ['Ceremonial county', '[[West Shire]]'],
      ['Founded', 'c. 1150'],
      ['City status', '1928'],
      ['Government', '[[Unitary authority]]'],
      ['Body', '[[Portlow City Council]]'],
      ['Lord Mayor', '[[!Eleanor Tregarthen]]'],
      [
        'MPs',
        '[[!Dev Raman (politician)|Dev Raman]] ([[!Harbour Labour|HL]])<br>[[!Helen Moyle]] ([[!Shire Liberals|SL]])',
      ],
    ];
    const areaRows: readonly (readonly [string, string])[] = [
      ['City', '79.8 km<sup>2</sup> (30.8 sq mi)'],
      ['Urban', '112.4 km<sup>2</sup> (43.4 sq mi)'],
      ['Elevation', '48 m (157 ft)'],
    ];
    const popRows: readonly (readonly [string, string])[] = [
      ['City', '231,800'],
      ['Rank', '[[List of English cities by population|31st]]'],
      ['Density', '2,905/km<sup>2</sup> (7,520/sq mi)'],
      ['Urban', '298,300'],
      ['[[Demonym]]', 'Portlovian'],
    ];
    const row = ([k, v]: readonly [string, string]) =>
      `<tr><th scope="row" class="infobox-label">${wikify(k)}</th><td class="infobox-data">${wikify(v)}</td></tr>`;
    const infobox = `<table class="infobox ib-settlement vcard"><tbody>
<tr><th colspan="2" class="infobox-above"><div class="fn org">Portlow</div></th></tr>
<tr><td colspan="2" class="infobox-subheader"><div class="category">[[City]] and [[unitary authority]]</div></td></tr>
<tr><td colspan="2" class="infobox-full-data"><span class="mw-default-size" typeof="mw:File/Frameless"><a href="/wiki/File:Portlow_harbour_panorama.jpg" class="mw-file-description"><img src="//upload.openpedia.example/thumb/a/ab/Portlow_harbour_panorama.jpg/290px-Portlow_harbour_panorama.jpg" decoding="async" width="290" height="160" class="mw-file-element" alt="Panorama of Portlow harbour"></a></span><div class="infobox-caption">Clockwise from top: the harbour, the Guildhall, Quayside Walk, St Petroc’s Cathedral and the Wend Bridge</div></td></tr>
<tr><td colspan="2" class="infobox-full-data"><a href="/wiki/File:Flag_of_Portlow.svg"><img src="//upload.openpedia.example/thumb/f/f1/Flag_of_Portlow.svg/100px-Flag_of_Portlow.svg.png" width="100" height="60" alt="Flag of Portlow"></a> <a href="/wiki/File:Arms_of_Portlow.svg"><img src="//upload.openpedia.example/thumb/c/c2/Arms_of_Portlow.svg/85px-Arms_of_Portlow.svg.png" width="85" height="100" alt="Coat of arms of Portlow"></a><div>Motto: <i lang="la">Ex undis fortior</i><br>“Stronger from the waves”</div></td></tr>
<tr><th scope="row" class="infobox-label">Coordinates</th><td class="infobox-data"><span class="geo-default"><span class="geo-dms" title="Maps, aerial photos, and other data for this location"><span class="latitude">50°30′43″N</span> <span class="longitude">4°19′05″W</span></span></span><span class="geo-nondefault"><span class="geo">50.512; -4.318</span></span></td></tr>
${infoboxRows.map(row).join('\n')}
<tr class="mergedtoprow"><th colspan="2" class="infobox-header">Area<div class="ib-settlement-fn">${cite(1)}</div></th></tr>
${areaRows.map(row).join('\n')}
<tr class="mergedtoprow"><th colspan="2" class="infobox-header">Population <span class="nowrap">(2021)</span>${cite(2)}</th></tr>
${popRows.map(row).join('\n')}
<tr class="mergedtoprow"><th scope="row" class="infobox-label">Time zone</th><td class="infobox-data">[[Greenwich Mean Time|UTC±0]] ([[Greenwich Mean Time|GMT]])</td></tr>
<tr class="mergedrow"><th scope="row" class="infobox-label">Summer ([[Daylight saving time|DST]])</th><td class="infobox-data">[[UTC+01:00|UTC+1]] ([[British Summer Time|BST]])</td></tr>
<tr><th scope="row" class="infobox-label">Postcode area</th><td class="infobox-data">[[!PW postcode area|PW]]</td></tr>
<tr><th scope="row" class="infobox-label">Dialling code</th><td class="infobox-data">01632</td></tr>
<tr><th scope="row" class="infobox-label">Website</th><td class="infobox-data"><span class="url"><a rel="nofollow" class="external text" href="https://www.portlow.gov.example/">portlow.gov.example</a></span></td></tr>
</tbody></table>`.replace(/\[\[[^\]]+\]\]/g, (m) => wikify(m));

    const toc = [
      'History',
      'Geography',
      'Climate',
      'Demography',
      'Governance',
      'Economy',
      'Transport',
      'Culture',
      'Sport',
      'Notable people',
      'Twin towns',
      'See also',
      'References',
      'External links',
    ];

    const history = [
      'The earliest evidence of settlement at Portlow is a [[Bronze Age]] [[!Penwyn hoard|hoard]] found on the [[!Penwyn Ridge]] in 1911. A small [[Roman Britain|Romano-British]] trading post at the mouth of the [[River Wend]] is known from coin finds and the foundations of a [[!Portlow Roman warehouse|warehouse]] excavated in 1974.',
      'The town is first recorded as <i>Porthlowe</i> in a [[charter]] of 1150 granting the [[!Priory of St Petroc (Portlow)|priory of St Petroc]] rights to a weekly [[market]] and an annual [[fair]]. It grew through the [[Middle Ages]] as a fishing port and a centre of the [[tin]] trade with [[Brittany]], and sent two members to Parliament from 1311.',
      'During the [[English Civil War]] Portlow changed hands twice and withstood a [[!Siege of Portlow|siege]] of five weeks in 1645. A naval victualling yard opened on the east bank in 1702 and remained the largest employer in the town until its closure in 1958.',
      'The arrival of the [[!West Shire Railway]] in 1852 and the building of the [[!Victoria Dock (Portlow)|Victoria Dock]] in 1871 turned Portlow into a port for [[slate]], [[fish]] and [[emigration]] to [[North America]]. The population rose from 18,000 in 1841 to 94,000 in 1901.',
      'The city centre was badly damaged by air raids in the spring of 1941. It was rebuilt to the [[!Plan for Portlow]] drawn up by the architects [[!Edith Marrack]] and [[!Hugh Penhale]], with wide boulevards and the [[Modernist architecture|modernist]] [[!Portlow Civic Centre|Civic Centre]]. Portlow became a [[unitary authority]] in 1997.',
    ];
    const geography = [
      'Portlow lies on the north shore of [[!Portlow Sound]] at the confluence of the [[River Wend]] and the [[!River Kenna]]. The city is built over a series of [[slate]] and [[granite]] ridges divided by drowned river valleys known locally as <i>pills</i>.',
      '[[!Penwyn Head]], a headland overlooking the Sound, has been the city’s principal open space since the 17th century. The [[!Portlow Breakwater|breakwater]], completed in 1866, shelters the inner harbour from south-westerly gales.',
      'Green spaces cover about a third of the city, including [[!Bosvean Gardens]], the [[!Wend Valley Local Nature Reserve]] and the [[!Saltings Country Park]] on the estuary.',
    ];

    // Climate table: 12 months + year, with a merged header and colour-coded cells.
    // Invented normals: smooth seasonal curves with a little seeded noise.
    const season = (m: number) => Math.cos(((m - 7) / 12) * 2 * Math.PI);
    const round1 = (x: number) => Math.round(x * 10) / 10;
    const hi = MONTHS.map((_, m) => round1(14.2 + 5.6 * season(m) + (rng.next() - 0.5) * 0.6));
    const lo = MONTHS.map((_, m) => round1(8.1 + 4.7 * season(m) + (rng.next() - 0.5) * 0.6));
    const rain = MONTHS.map((_, m) => round1(88 - 30 * season(m) + (rng.next() - 0.5) * 14));
    const sun = MONTHS.map((_, m) => round1(135 + 80 * season(m) + (rng.next() - 0.5) * 20));
    const wetDays = MONTHS.map((_, m) => round1(12.6 - 3.4 * season(m) + (rng.next() - 0.5)));
    const records = hi.map((h) => round1(h + 6 + rng.next() * 5));
    const mean = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(1);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0).toFixed(1);
    const colour = (t: number) =>
      `background: #${(255).toString(16)}${Math.max(0, Math.min(255, Math.round(255 - t * 6)))
        .toString(16)
        .padStart(2, '0')}${Math.max(0, Math.min(255, Math.round(255 - t * 9)))
        .toString(16)
        .padStart(2, '0')}; color:#000000;`;
    const climateRow = (label: string, values: number[], total: string, styled: boolean) =>
      `<tr style="text-align: center;"><th scope="row" style="height: 16px;">${label}</th>${values.map((v) => `<td style="${styled ? colour(v) : ''}">${v}<br>(${((v * 9) / 5 + 32).toFixed(1)})</td>`).join('')}<td style="border-left-width:medium">${total}</td></tr>`;
    const climate =
      `<table class="wikitable mw-collapsible" style="width:auto; text-align:center; line-height: 1.2em; margin:auto;">
<tbody><tr><th colspan="14">Climate data for Portlow (Penwyn Head), elevation: 41 m, 1991–2020 normals, extremes 1931–present</th></tr>
<tr><th scope="row">Month</th>${MONTHS.map((m) => `<th scope="col">${m}</th>`).join('')}<th scope="col" style="border-left-width:medium">Year</th></tr>
<tr style="text-align: center;"><th scope="row" style="height: 16px;">Record high °C (°F)</th>${records.map((v) => `<td style="${colour(v)}">${v}<br>(${((v * 9) / 5 + 32).toFixed(1)})</td>`).join('')}<td style="border-left-width:medium">${Math.max(...records)}<br>(${((Math.max(...records) * 9) / 5 + 32).toFixed(1)})</td></tr>
${climateRow('Mean daily maximum °C (°F)', hi, mean(hi), true)}
${climateRow('Mean daily minimum °C (°F)', lo, mean(lo), true)}
<tr><th scope="row">Average precipitation mm (inches)</th>${rain.map((v) => `<td style="background:#${Math.round(255 - v).toString(16)}${Math.round(255 - v).toString(16)}ff">${v}<br>(${(v / 25.4).toFixed(2)})</td>`).join('')}<td>${sum(rain)}<br>(${(Number(sum(rain)) / 25.4).toFixed(2)})</td></tr>
<tr><th scope="row">Average precipitation days (≥ 1.0 mm)</th>${wetDays.map((v) => `<td>${v}</td>`).join('')}<td>${sum(wetDays)}</td></tr>
<tr><th scope="row">Mean monthly sunshine hours</th>${sun
        .map(
          (v) =>
            `<td style="background:#ffff${Math.round(255 - v / 1.2)
              .toString(16)
              .padStart(2, '0')}">${v}</td>`,
        )
        .join('')}<td>${sum(sun)}</td></tr>
<tr><td colspan="14" style="text-align:center;font-size:95%;">Source 1: [[!National Weather Office]]${cite(40)}</td></tr>
<tr><td colspan="14" style="text-align:center;font-size:95%;">Source 2: [[!Portlow Climate Archive]]${cite(41)}</td></tr>
</tbody></table>`.replace(/\[\[[^\]]+\]\]/g, (m) => wikify(m));

    const years = [
      1801, 1811, 1821, 1831, 1841, 1851, 1861, 1871, 1881, 1891, 1901, 1911, 1921, 1931, 1951,
      1961, 1971, 1981, 1991, 2001, 2011, 2021,
    ];
    let pop = 9800;
    const popHistory = years.map((y) => {
      const prev = pop;
      pop = Math.round(pop * (y < 1901 ? 1.24 : y < 1951 ? 1.06 : 1.015) + rng.int(-3000, 3000));
      if (y === 1951) pop -= 8000;
      const change = (((pop - prev) / prev) * 100).toFixed(1);
      return `<tr><td>${y}</td><td data-sort-value="${pop}">${pop.toString().replace(/\B(?=(\d{3})+$)/g, ',')}</td><td data-sort-value="${change}">${Number(change) >= 0 ? '+' : '−'}${Math.abs(Number(change))}%</td></tr>`;
    });
    const popTable =
      `<table class="wikitable sortable" style="text-align:right"><caption>Population of Portlow, 1801–2021</caption><thead><tr><th>Year</th><th>Pop.</th><th>±%</th></tr></thead><tbody>${popHistory.join('')}</tbody><tfoot><tr><td colspan="3" style="text-align:left;font-size:85%">Source: census returns; no census in 1941 because of the [[Second World War]].</td></tr></tfoot></table>`.replace(
        /\[\[[^\]]+\]\]/g,
        (m) => wikify(m),
      );

    const ethnic = [
      ['White', 'White British', 89.1, 92.0],
      ['White', 'Other White', 4.1, 3.2],
      ['Asian', 'Indian', 0.9, 0.6],
      ['Asian', 'Chinese', 1.1, 0.8],
      ['Asian', 'Other Asian', 0.9, 0.5],
      ['Black', 'African', 1.2, 0.7],
      ['Black', 'Caribbean', 0.2, 0.2],
      ['Mixed', 'All mixed groups', 1.7, 1.3],
      ['Other', 'Arab and other', 0.8, 0.7],
    ] as const;
    let ethnicRows = '';
    let lastGroup = '';
    for (const [group, sub, y2021, y2011] of ethnic) {
      const span = ethnic.filter((e) => e[0] === group).length;
      ethnicRows += `<tr>${group !== lastGroup ? `<th rowspan="${span}" scope="rowgroup">${group}</th>` : ''}<td>${sub}</td><td>${y2021}</td><td>${y2011}</td></tr>`;
      lastGroup = group;
    }
    const ethnicTable = `<table class="wikitable sortable"><caption>Ethnic groups (percentage of residents)</caption><thead><tr><th rowspan="2">Group</th><th rowspan="2">Subgroup</th><th colspan="2">Census</th></tr><tr><th>2021${cite(3)}</th><th>2011${cite(4)}</th></tr></thead><tbody>${ethnicRows}</tbody><tfoot><tr><th colspan="2">Total</th><td>100</td><td>100</td></tr></tfoot></table>`;

    const wards = [
      'Quayside',
      'Penwyn',
      'Trewin',
      'Northfield',
      'Old Town',
      'East Bank',
      'Marsh Lane',
      'Gull Point',
      'Carn Hill',
      'Rosemullion',
      'St Keyne',
      'Tolvan',
      'Chapel Down',
      'Heron Mill',
      'Lantyan',
      'Boskenna',
      'Polgrain',
      'Trevellas',
      'Kestle',
      'Saltings',
    ];
    const parties = [
      'Harbour Labour',
      'Shire Conservative',
      'Shire Liberals',
      'Green',
      'Independent',
    ];
    let wardRows = '';
    for (let i = 0; i < wards.length; i++) {
      const seats = rng.int(2, 3);
      const councillors = Array.from(
        { length: seats },
        () =>
          [
            rng.pick(['A.', 'B.', 'C.', 'D.', 'J.', 'K.', 'M.', 'R.', 'S.', 'T.']) +
              ' ' +
              rng.pick([
                'Tregarthen',
                'Pascoe',
                'Nance',
                'Hocking',
                'Rowe',
                'Jago',
                'Trelawny',
                'Penrose',
                'Carne',
                'Bolitho',
                'Oates',
                'Kitto',
              ]),
            rng.pick(parties),
          ] as const,
      );
      councillors.forEach(([name, party], j) => {
        wardRows += `<tr>${j === 0 ? `<td rowspan="${seats}">[[!${wards[i]} (ward)|${wards[i]}]]</td><td rowspan="${seats}" data-sort-value="${rng.int(9000, 16000)}">${rng.int(9, 15)},${String(rng.int(0, 999)).padStart(3, '0')}</td>` : ''}<td>${name}</td><td><span class="party-${party.toLowerCase().replace(/ /g, '-')}">[[${party === 'Independent' ? 'Independent politician|Independent' : `!${party} (Portlow)|${party}`}]]</span></td></tr>`;
      });
    }
    const wardTable =
      `<table class="wikitable sortable mw-collapsible"><caption>Electoral wards and councillors (2024)</caption><thead><tr><th>Ward</th><th>Electorate</th><th>Councillor</th><th>Party</th></tr></thead><tbody>${wardRows}</tbody></table>`.replace(
        /\[\[[^\]]+\]\]/g,
        (m) => wikify(m),
      );

    const clubs = [
      [
        '[[!Portlow Wanderers F.C.|Portlow Wanderers]]',
        '[[Association football|Football]]',
        '[[!West Shire League]]',
        '[[!Quay Road (stadium)|Quay Road]]',
        '1891',
      ],
      [
        '[[!Portlow Pirates R.F.C.|Portlow Pirates]]',
        '[[Rugby union]]',
        '[[!Southern Counties League]]',
        '[[!Carn Hill Ground]]',
        '1879',
      ],
      [
        '[[!Portlow Seals]]',
        '[[Basketball]]',
        '[[!National Basketball League (fictional)|National League]]',
        '[[!Harbour Arena]]',
        '1988',
      ],
      [
        '[[!Portlow Comets]]',
        '[[Speedway]]',
        '[[!Speedway National League (fictional)|National League]]',
        '[[!Saltings Raceway]]',
        '1934',
      ],
      [
        '[[!Penwyn Athletic F.C.]]',
        '[[Association football|Football]]',
        '[[!West Shire League]]',
        '[[!Penwyn Recreation Ground]]',
        '2006',
      ],
      ['[[!Portlow Rowing Club]]', '[[Rowing (sport)|Rowing]]', '—', 'Penwyn Head', '1868'],
    ];
    const clubTable =
      `<table class="wikitable sortable"><thead><tr><th>Club</th><th>Sport</th><th>League</th><th>Venue</th><th>Founded</th></tr></thead><tbody>${clubs.map((r) => `<tr>${r.map((x) => `<td>${x}</td>`).join('')}</tr>`).join('')}</tbody></table>`.replace(
        /\[\[[^\]]+\]\]/g,
        (m) => wikify(m),
      );

    const people = [
      'Agnes Trevail',
      'Captain John Rosewarne',
      'Mary Kestell',
      'William Polglase (engineer)',
      'Lowdy Opie',
      'Henry Treloar',
    ];
    const fictionalPeople = [
      'Eleanor Tregarthen',
      'Samuel Pascoe (engineer)',
      'Maud Penrose',
      'Jacob Nance',
      'Ruth Kitto',
      'Walter Bolitho',
      'Kerensa Jago',
      'Arthur Trelawny (painter)',
      'Ivy Hocking',
      'Thomas Carne (explorer)',
    ];
    const twinned = [
      ['Port-Morvan', 'France'],
      ['Vigomar', 'Spain'],
      ['Kastrup Havn', 'Denmark'],
      ['New Portlow', 'Canada'],
    ];

    const navboxGroups: readonly (readonly [string, readonly string[]])[] = [
      [
        'Districts',
        [
          'Quayside',
          'Penwyn',
          'Trewin',
          'Northfield',
          'Old Town',
          'East Bank',
          'Marsh Lane',
          'Gull Point',
          'Carn Hill',
          'Rosemullion',
          'St Keyne',
          'Tolvan',
          'Chapel Down',
          'Heron Mill',
          'Lantyan',
          'Boskenna',
          'Polgrain',
          'Trevellas',
          'Kestle',
          'Wheal Rose',
          'Tremorva',
          'Lanjeth',
          'Carnsew',
          'Penhallow',
          'Bosvean',
          'Trenance',
          'Polwin',
          'Castle Bank',
          'Ropewalk',
          'Tidemill',
          'Saltings',
          'Fore Street',
        ],
      ],
      [
        'Landmarks',
        [
          'Penwyn Head',
          'Wend Lighthouse',
          'Old Citadel',
          'Fish Quay',
          'Emigrants’ Steps',
          'Harbour Lido',
          'Portlow Guildhall',
          'St Petroc’s Cathedral (Portlow)',
          'Chapel of St Keyne',
          'Gull Island',
          'Trewin House',
          'Bosvean Gardens',
        ],
      ],
      [
        'Education',
        [
          'University of Portlow',
          'Penwyn College of Art',
          'Portlow City College',
          'Penwyn Grammar School',
          'Quayside Academy',
          'St Keyne’s School',
          'Northfield Community College',
        ],
      ],
      [
        'Transport',
        [
          'Portlow railway station',
          'Portlow Ferry Port',
          'Wend Bridge',
          'Trewin Chain Ferry',
          'Gull Point Ferry',
          'A3900 road',
          'Portlow City Airport',
          'Portlow Citybus',
        ],
      ],
      [
        'Culture',
        [
          'Quayside Museum',
          'Portlow Playhouse',
          'Harbour Arena',
          'West Shire Marine Aquarium',
          'Portlow Athenaeum',
          'Portlow Arts Centre',
          'Harbourfront Jazz Festival',
        ],
      ],
    ];
    const navbox = `<div role="navigation" class="navbox" aria-labelledby="Portlow_navbox"><table class="nowraplinks mw-collapsible autocollapse navbox-inner"><tbody><tr><th scope="col" class="navbox-title" colspan="2"><div class="navbar plainlinks hlist navbar-mini"><ul><li class="nv-view"><a href="/wiki/Template:Portlow" title="Template:Portlow"><abbr title="View this template">v</abbr></a></li><li class="nv-talk"><a href="/wiki/Template_talk:Portlow"><abbr title="Discuss this template">t</abbr></a></li><li class="nv-edit"><a href="/wiki/Special:EditPage/Template:Portlow"><abbr title="Edit this template">e</abbr></a></li></ul></div><div id="Portlow_navbox">${wikify('[[Portlow]]')}</div></th></tr>${navboxGroups
      .map(
        ([g, links]) =>
          `<tr><th scope="row" class="navbox-group">${g}</th><td class="navbox-list hlist"><div><ul>${links.map((l, i) => `<li>${wikify(i % 5 === 3 ? `[[!${l}]]` : `[[${l}]]`)}</li>`).join('')}</ul></div></td></tr>`,
      )
      .join('')}</tbody></table></div>`;

    const citeSources = [
      'Portlow City Council',
      'Office for National Statistics',
      'The Riverton Courier',
      'West Shire Record Office',
      'Historic England',
      'Portlow Evening Herald',
      'University of Portlow Press',
      'National Weather Office',
      'Port of Portlow Authority',
      'Sports Archive',
    ];
    const refs: string[] = [];
    for (let i = 1; i <= Math.max(c + 10, 60); i++) {
      const src = rng.pick(citeSources);
      const year = rng.int(1954, 2024);
      refs.push(
        `<li id="cite_note-${i}"><span class="mw-cite-backlink"><b><a href="#cite_ref-${i}">^</a></b></span> <span class="reference-text"><cite class="citation ${rng.chance(0.5) ? 'web' : 'book'} cs1">${rng.chance(0.4) ? `${esc(rng.pick(['Tregarthen, E.', 'Pascoe, S.', 'Nance, J.', 'Kitto, R.', 'Hocking, I.']))} (${year}). ` : ''}<a rel="nofollow" class="external text" href="https://${src.toLowerCase().replace(/[^a-z]+/g, '')}.example/ref/${year}/${rng.int(1000, 99999)}">“${esc(rng.pick(['Portlow in the census', 'A history of the Sound', 'Ward profiles', 'The rebuilding of the city centre', 'Climate normals 1991–2020', 'Dockyard employment 1900–1962', 'Population estimates', 'Listed buildings in Portlow']))}”</a>. <i>${esc(src)}</i>. ${year}. Retrieved ${rng.int(1, 28)} ${rng.pick(['January', 'March', 'June', 'September', 'November'])} ${rng.int(2015, 2025)}.</cite></span></li>`,
      );
    }

    const languages = [
      'العربية',
      'Български',
      'Brezhoneg',
      'Català',
      'Čeština',
      'Cymraeg',
      'Dansk',
      'Deutsch',
      'Eesti',
      'Ελληνικά',
      'Español',
      'Esperanto',
      'Euskara',
      'فارسی',
      'Français',
      'Gaeilge',
      'Galego',
      '한국어',
      'Hrvatski',
      'Bahasa Indonesia',
      'Italiano',
      'עברית',
      'Kernewek',
      'Latina',
      'Lietuvių',
      'Magyar',
      'Nederlands',
      '日本語',
      'Norsk bokmål',
      'Polski',
      'Português',
      'Română',
      'Русский',
      'Scots',
      'Simple English',
      'Slovenčina',
      'Српски / srpski',
      'Suomi',
      'Svenska',
      'ไทย',
      'Türkçe',
      'Українська',
      'Tiếng Việt',
      '中文',
    ];
    const codes = [
      'ar',
      'bg',
      'br',
      'ca',
      'cs',
      'cy',
      'da',
      'de',
      'et',
      'el',
      'es',
      'eo',
      'eu',
      'fa',
      'fr',
      'ga',
      'gl',
      'ko',
      'hr',
      'id',
      'it',
      'he',
      'kw',
      'la',
      'lt',
      'hu',
      'nl',
      'ja',
      'nb',
      'pl',
      'pt',
      'ro',
      'ru',
      'sco',
      'simple',
      'sk',
      'sr',
      'fi',
      'sv',
      'th',
      'tr',
      'uk',
      'vi',
      'zh',
    ];

    const content =
      `<div class="hatnote navigation-not-searchable" role="note">This article is about the city in England. For other uses, see ${wikify('[[Portlow (disambiguation)]]')}.</div>
<div class="shortdescription nomobile noexcerpt noprint searchaux" style="display:none">City in West Shire, England</div>
${infobox}
<p><b>Portlow</b> (<span class="rt-commentedText nowrap"><span class="IPA">/ˈpɔːrtloʊ/</span></span> <i title="English pronunciation respelling">PORT-loh</i>) is a port [[city]] and [[unitary authority]] in [[West Shire]], [[England]]. It is on the south coast of the [[!West Shire peninsula]], where the [[River Wend]] and the [[!River Kenna]] meet [[!Portlow Sound]]. With a population of 231,800 at the 2021 census, it is the largest city in the county.${cite(5)}</p>`.replace(
        /\[\[[^\]]+\]\]/g,
        (m) => wikify(m),
      ) +
      `\n${p('Portlow grew from a medieval fishing and trading town into a naval base and emigration port. Most of its centre was rebuilt after the [[Second World War]]. Today its economy is based on [[higher education]], [[healthcare]], [[marine engineering]] and [[tourism]].')}
<div id="toc" class="toc" role="navigation" aria-labelledby="mw-toc-heading"><input type="checkbox" role="button" id="toctogglecheckbox" class="toctogglecheckbox" style="display:none"><div class="toctitle" lang="en" dir="ltr"><h2 id="mw-toc-heading">Contents</h2></div><ul>${toc.map((t, i) => `<li class="toclevel-1 tocsection-${i + 1}"><a href="#${t.replace(/ /g, '_')}"><span class="tocnumber">${i + 1}</span> <span class="toctext">${t}</span></a></li>`).join('')}</ul></div>
${heading(2, 'History')}
${history.map(p).join('\n')}
<figure class="mw-default-size" typeof="mw:File/Thumb"><a href="/wiki/File:Portlow_1941.jpg" class="mw-file-description"><img src="//upload.openpedia.example/thumb/0/0e/Portlow_1941.jpg/220px-Portlow_1941.jpg" decoding="async" width="220" height="150" class="mw-file-element" alt=""></a><figcaption>Bomb damage in the city centre, April 1941</figcaption></figure>
${heading(2, 'Geography')}
${geography.map(p).join('\n')}
${heading(3, 'Climate')}
${p('Portlow has a [[temperate climate|temperate]] [[oceanic climate]] ([[Köppen climate classification|Köppen]] <i>Cfb</i>) with mild, wet winters and cool summers. [[Snow]] is rare, falling on fewer than five days a year. The highest temperature recorded at Penwyn Head is given in the table below.')}
${climate}
${heading(2, 'Demography')}
${p('At the 2021 census Portlow had 231,800 residents in 101,600 households. The median age was 38, younger than the national median because of the large student population at the [[!University of Portlow]] and [[!Penwyn College of Art]].')}
${popTable}
${ethnicTable}
${p('The largest religious group was [[Christianity|Christian]] (42.1%), followed by no religion (48.0%), [[Islam]] (1.3%) and [[Buddhism]] (0.6%).')}
${heading(2, 'Governance')}
${p('[[!Portlow City Council]] has been a [[unitary authority]] since 1997, responsible for all local services. It has about 50 councillors representing 20 [[!Wards of Portlow|wards]], elected by thirds. The city is covered by two parliamentary constituencies.')}
${wardTable}
${heading(2, 'Economy')}
${p('The [[!Portlow Ship Repair Yard|ship repair yard]] and the boatbuilders of the east bank employ about 6,000 people. Other large employers include the [[!Portlow Hospitals Trust]], the [[!University of Portlow]], [[!Kenna Marine|a marine electronics maker]] and the city council. The [[!Port of Portlow]] handles a ferry service to [[!Port-Morvan]] in [[Brittany]] and about 1.2 million tonnes of freight a year.')}
${p('Tourism is centred on the [[!Fish Quay (Portlow)|Fish Quay]], Penwyn Head and the [[!West Shire Marine Aquarium]], which attract about 3.4 million visitors a year.')}
${heading(2, 'Transport')}
${p('[[!Portlow railway station]] is on the [[!West Shire main line]] to [[London]] (about 3 hours 40 minutes). The [[!A3900 road|A3900]] [[Dual carriageway|dual carriageway]] links the city to the national motorway network. The [[!Wend Bridge]] and the [[!Trewin Chain Ferry]] cross the estuary. [[!Portlow City Airport]] closed in 2009.')}
${heading(2, 'Culture')}
${p('The [[!Portlow Playhouse]] is the largest theatre in the county. The [[!Quayside Museum]], opened in 2019 in a former grain store, holds the city’s collections of art, natural history and archives. The [[!Harbourfront Jazz Festival]] has been held every July since 2005.')}
<ul class="gallery mw-gallery-traditional">${['Wend Lighthouse', 'Old Citadel', 'Fish Quay', 'Harbour Lido', 'Guildhall'].map((g) => `<li class="gallerybox" style="width: 155px"><div class="thumb" style="width: 150px; height: 150px;"><span typeof="mw:File"><a href="/wiki/File:${encodeURIComponent(g.replace(/ /g, '_'))}.jpg" class="mw-file-description"><img alt="${esc(g)}" src="//upload.openpedia.example/thumb/${encodeURIComponent(g.replace(/ /g, '_'))}.jpg/120px.jpg" decoding="async" width="120" height="90" class="mw-file-element"></a></span></div><div class="gallerytext">${wikify(`[[${g}]]`)}</div></li>`).join('')}</ul>
${heading(2, 'Sport')}
${clubTable}
${heading(2, 'Notable people')}
<div class="div-col" style="column-width: 22em;"><ul>${[...people, ...fictionalPeople].map((n, i) => `<li>${wikify(i % 2 === 1 ? `[[!${n}]]` : `[[${n}]]`)}${i % 3 === 0 ? cite(rng.int(6, 39)) : ''}</li>`).join('')}</ul></div>
${heading(2, 'Twin towns')}
<p>Portlow is [[Town twinning|twinned]] with:${cite(42)}</p>
<ul>${twinned.map(([t, country]) => `<li>${wikify(`[[!${t}]], [[${country}]]`)}</li>`).join('')}</ul>
${heading(2, 'See also')}
<ul><li>${wikify('[[List of people from Portlow]]')}</li><li>${wikify('[[!Listed buildings in Portlow]]')}</li><li>${wikify('[[!Plan for Portlow]]')}</li><li>${wikify('[[!Emigrants’ Steps]]')}</li></ul>
${heading(2, 'References')}
<div class="reflist"><div class="mw-references-wrap mw-references-columns"><ol class="references">${refs.join('\n')}</ol></div></div>
${heading(2, 'External links')}
<ul><li><a rel="nofollow" class="external text" href="https://www.portlow.gov.example/">Portlow City Council</a></li><li><a rel="nofollow" class="external text" href="https://visitportlow.example/">Visit Portlow</a> (tourism)</li><li><a rel="nofollow" class="external text" href="https://www.portlowhistory.example/">Portlow History Society</a></li></ul>
${navbox}
${navbox.replace(/Portlow_navbox/g, 'West_Shire_navbox').replace('>Portlow</a></div>', '>West Shire</a></div>')}`.replace(
        /\[\[[^\]]+\]\]/g,
        (m) => wikify(m),
      );

    const sidebarGroups: readonly (readonly [string, readonly (readonly [string, string])[]])[] = [
      [
        'Navigation',
        [
          ['Main page', '/wiki/Main_Page'],
          ['Contents', '/wiki/Openpedia:Contents'],
          ['Current events', '/wiki/Portal:Current_events'],
          ['Random article', '/wiki/Special:Random'],
          ['About Openpedia', '/wiki/Openpedia:About'],
          ['Contact us', '/wiki/Openpedia:Contact_us'],
        ],
      ],
      [
        'Contribute',
        [
          ['Help', '/wiki/Help:Contents'],
          ['Learn to edit', '/wiki/Help:Introduction'],
          ['Community portal', '/wiki/Openpedia:Community_portal'],
          ['Recent changes', '/wiki/Special:RecentChanges'],
          ['Upload file', '/wiki/Openpedia:File_upload_wizard'],
        ],
      ],
      [
        'Tools',
        [
          ['What links here', '/wiki/Special:WhatLinksHere/Portlow'],
          ['Related changes', '/wiki/Special:RecentChangesLinked/Portlow'],
          ['Special pages', '/wiki/Special:SpecialPages'],
          ['Permanent link', '/w/index.php?title=Portlow&oldid=1279904112'],
          ['Page information', '/w/index.php?title=Portlow&action=info'],
          ['Cite this page', '/w/index.php?title=Special:CiteThisPage&page=Portlow'],
          ['Get shortened URL', '/w/index.php?title=Special:UrlShortener&url=Portlow'],
          ['Download as PDF', '/w/index.php?title=Special:DownloadAsPdf&page=Portlow'],
          ['Printable version', '/w/index.php?title=Portlow&printable=yes'],
          ['Wikidata item', 'https://data.openpedia.example/wiki/Q43382'],
        ],
      ],
    ];
    const sidebar = sidebarGroups
      .map(
        ([g, links]) =>
          `<nav id="p-${g.toLowerCase()}" class="vector-menu mw-portlet" aria-labelledby="p-${g.toLowerCase()}-label"><h3 id="p-${g.toLowerCase()}-label" class="vector-menu-heading">${g}</h3><div class="vector-menu-content"><ul class="vector-menu-content-list">${links.map(([t, h]) => `<li class="mw-list-item"><a href="${h}"><span>${t}</span></a></li>`).join('')}</ul></div></nav>`,
      )
      .join('\n');
    const langs = `<div id="p-lang-btn" class="vector-dropdown mw-portlet mw-portlet-lang"><h3 class="vector-menu-heading">${languages.length} languages</h3><ul class="vector-menu-content-list">${languages.map((l, i) => `<li class="interlanguage-link interwiki-${codes[i]} mw-list-item"><a href="https://${codes[i]}.openpedia.example/wiki/Portlow" title="Portlow – ${esc(l)}" lang="${codes[i]}" hreflang="${codes[i]}" class="interlanguage-link-target"><span>${esc(l)}</span></a></li>`).join('')}</ul></div>`;
    const categories = [
      'Portlow',
      'Cities in West Shire',
      'Port cities and towns in South West England',
      'Unitary authority districts of England',
      'Populated coastal places in West Shire',
      'Naval towns in England',
      'Cities in South West England',
      'Local government districts of West Shire',
    ];

    const head = `<meta charset="UTF-8">
<title>Portlow - Openpedia</title>
<script>(function(){var className="client-js vector-feature-language-in-header-enabled vector-feature-toc-pinned-clientpref-1";var cookie=document.cookie.match(/(?:^|; )enwikimwclientpreferences=([^;]+)/);if(cookie){cookie[1].split('%2C').forEach(function(pref){className=className.replace(new RegExp('(^| )'+pref.replace(/-clientpref-\\w+$|[^\\w-]+/g,'')+'-clientpref-\\\\w+( |$)'),'$1'+pref+'$2');});}document.documentElement.className=className;}());RLCONF={"wgBreakFrames":false,"wgSeparatorTransformTable":["",""],"wgDigitTransformTable":["",""],"wgDefaultDateFormat":"dmy","wgMonthNames":["","January","February","March","April","May","June","July","August","September","October","November","December"],"wgRequestId":"f2b1c0a9-${rng.int(1000, 9999)}","wgCanonicalNamespace":"","wgCanonicalSpecialPageName":false,"wgNamespaceNumber":0,"wgPageName":"Portlow","wgTitle":"Portlow","wgCurRevisionId":1279904112,"wgRevisionId":1279904112,"wgArticleId":43382,"wgIsArticle":true,"wgIsRedirect":false,"wgAction":"view","wgUserName":null,"wgUserGroups":["*"],"wgCategories":${JSON.stringify(categories)},"wgPageContentLanguage":"en","wgPageContentModel":"wikitext","wgRelevantPageName":"Portlow","wgRelevantArticleId":43382,"wgIsProbablyEditable":true,"wgRestrictionEdit":[],"wgRestrictionMove":[]};RLSTATE={"ext.globalCssJs.user.styles":"ready","site.styles":"ready","user.styles":"ready","ext.cite.styles":"ready","skins.vector.styles":"ready","jquery.tablesorter.styles":"ready"};RLPAGEMODULES=["ext.cite.ux-enhancements","site","mediawiki.page.ready","jquery.tablesorter","mediawiki.toc","skins.vector.js"];</script>
<script>(RLQ=window.RLQ||[]).push(function(){mw.loader.impl(function(){return["user.options@12s5i",function($,jQuery,require,module){mw.user.tokens.set({"patrolToken":"+\\\\","watchToken":"+\\\\","csrfToken":"+\\\\"});}];});});</script>
<link rel="stylesheet" href="/w/load.php?lang=en&amp;modules=ext.cite.styles%7Cjquery.tablesorter.styles%7Cskins.vector.icons%2Cstyles&amp;only=styles&amp;skin=vector-2022">
<script async="" src="/w/load.php?lang=en&amp;modules=startup&amp;only=scripts&amp;raw=1&amp;skin=vector-2022"></script>
<meta name="generator" content="MediaWiki 1.44.0-wmf.19">
<meta name="referrer" content="origin">
<meta name="robots" content="max-image-preview:standard">
<meta name="format-detection" content="telephone=no">
<meta property="og:image" content="https://upload.openpedia.example/thumb/a/ab/Portlow_harbour_panorama.jpg/1200px-Portlow_harbour_panorama.jpg">
<meta property="og:image:width" content="1200">
<meta property="og:image:height" content="662">
<meta name="viewport" content="width=1120">
<meta property="og:title" content="Portlow - Openpedia">
<meta property="og:type" content="website">
<link rel="preconnect" href="//upload.openpedia.example">
<link rel="alternate" media="only screen and (max-width: 640px)" href="//en.m.openpedia.example/wiki/Portlow">
<link rel="alternate" type="application/x-wiki" title="Edit this page" href="/w/index.php?title=Portlow&amp;action=edit">
<link rel="apple-touch-icon" href="/static/apple-touch/openpedia.png">
<link rel="icon" href="/static/favicon/openpedia.ico">
<link rel="search" type="application/opensearchdescription+xml" href="/w/rest.php/v1/search" title="Openpedia (en)">
<link rel="EditURI" type="application/rsd+xml" href="//en.openpedia.example/w/api.php?action=rsd">
<link rel="canonical" href="https://en.openpedia.example/wiki/Portlow">
<link rel="license" href="https://creativecommons.org/licenses/by-sa/4.0/deed.en">
<link rel="alternate" type="application/atom+xml" title="Openpedia Atom feed" href="/w/index.php?title=Special:RecentChanges&amp;feed=atom">
<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'Article', name: 'Portlow', url: 'https://en.openpedia.example/wiki/Portlow', sameAs: 'https://data.openpedia.example/entity/Q43382', mainEntity: 'https://data.openpedia.example/entity/Q43382', author: { '@type': 'Organization', name: 'Contributors to Openpedia projects' }, publisher: { '@type': 'Organization', name: 'Openpedia Foundation', logo: { '@type': 'ImageObject', url: 'https://openpedia.example/static/logo.png' } }, datePublished: '2002-03-11T09:41:00Z', dateModified: '2025-03-09T17:22:05Z', headline: 'city in West Shire, England' })}</script>`;
    const body = `<body class="skin--responsive skin-vector skin-vector-search-vue mediawiki ltr sitedir-ltr mw-hide-empty-elt ns-0 ns-subject mw-editable page-Portlow rootpage-Portlow skin-vector-2022 action-view">
<a class="mw-jump-link" href="#bodyContent">Jump to content</a>
<div class="vector-header-container"><header class="vector-header mw-header"><div class="vector-header-start"><nav class="vector-main-menu-landmark" aria-label="Site">${sidebar}</nav><a href="/wiki/Main_Page" class="mw-logo"><img class="mw-logo-icon" src="/static/images/icons/openpedia.png" alt="" aria-hidden="true" height="50" width="50"><span class="mw-logo-container">Openpedia<br>The Free Encyclopedia</span></a></div>
<div class="vector-header-end"><div id="p-search" role="search" class="vector-search-box"><form action="/w/index.php" id="searchform"><input type="search" name="search" placeholder="Search Openpedia" aria-label="Search Openpedia" accesskey="f" id="searchInput"><input type="hidden" name="title" value="Special:Search"><button>Search</button></form></div>
<nav class="vector-user-links" aria-label="Personal tools"><ul><li id="pt-createaccount"><a href="/w/index.php?title=Special:CreateAccount&amp;returnto=Portlow">Create account</a></li><li id="pt-login"><a href="/w/index.php?title=Special:UserLogin&amp;returnto=Portlow" accesskey="o">Log in</a></li></ul></nav></div></header></div>
<div class="mw-page-container"><div class="mw-page-container-inner">
<div class="vector-main-container"><div id="siteNotice"><div id="centralNotice"></div></div>
<main id="content" class="mw-body">
<header class="mw-body-header vector-page-titlebar"><h1 id="firstHeading" class="firstHeading mw-first-heading"><span class="mw-page-title-main">Portlow</span></h1>${langs}</header>
<div class="vector-page-toolbar"><nav aria-label="Namespaces"><ul><li class="selected"><a href="/wiki/Portlow">Article</a></li><li><a href="/wiki/Talk:Portlow" rel="discussion">Talk</a></li></ul></nav><nav aria-label="Views"><ul><li class="selected"><a href="/wiki/Portlow">Read</a></li><li><a href="/w/index.php?title=Portlow&amp;action=edit">Edit</a></li><li><a href="/w/index.php?title=Portlow&amp;action=history">View history</a></li></ul></nav></div>
<div id="bodyContent" class="vector-body" aria-labelledby="firstHeading"><div id="siteSub" class="noprint">From Openpedia, the free encyclopedia</div><div id="contentSub"></div>
<div id="mw-content-text" class="mw-body-content"><div class="mw-content-ltr mw-parser-output" lang="en" dir="ltr">
${content}
</div></div>
<div id="catlinks" class="catlinks" data-mw="interface"><div id="mw-normal-catlinks" class="mw-normal-catlinks"><a href="/wiki/Help:Category" title="Help:Category">Categories</a>: <ul>${categories.map((cat) => `<li><a href="/wiki/Category:${encodeURIComponent(cat.replace(/ /g, '_'))}" title="Category:${esc(cat)}">${esc(cat)}</a></li>`).join('')}</ul></div><div id="mw-hidden-catlinks" class="mw-hidden-catlinks mw-hidden-cats-hidden">Hidden categories: <ul><li><a href="/wiki/Category:Articles_with_short_description">Articles with short description</a></li><li><a href="/wiki/Category:Coordinates_on_Wikidata">Coordinates on Wikidata</a></li></ul></div></div>
</div></main></div>
<footer id="footer" class="mw-footer" role="contentinfo"><ul id="footer-info"><li id="footer-info-lastmod"> This page was last edited on 9 March 2025, at 17:22<span class="anonymous-show"> (UTC)</span>.</li><li id="footer-info-copyright">Text is available under the <a rel="nofollow" class="external text" href="https://creativecommons.org/licenses/by-sa/4.0/deed.en">Creative Commons Attribution-ShareAlike 4.0 License</a>; additional terms may apply.</li></ul>
<ul id="footer-places"><li><a href="https://foundation.openpedia.example/privacy">Privacy policy</a></li><li><a href="/wiki/Openpedia:About">About Openpedia</a></li><li><a href="/wiki/Openpedia:General_disclaimer">Disclaimers</a></li><li><a href="//en.openpedia.example/wiki/Openpedia:Contact_us">Contact Openpedia</a></li><li><a href="https://developer.openpedia.example">Developers</a></li><li><a href="https://stats.openpedia.example/#/en.openpedia.example">Statistics</a></li><li><a href="https://foundation.openpedia.example/cookie-statement">Cookie statement</a></li><li><a href="//en.m.openpedia.example/w/index.php?title=Portlow&amp;mobileaction=toggle_view_mobile" class="noprint stopMobileRedirectToggle">Mobile view</a></li></ul></footer>
</div></div>
<script>(RLQ=window.RLQ||[]).push(function(){mw.config.set({"wgHostname":"mw-web.eqiad.main-${rng.int(100, 999)}","wgBackendResponseTime":${rng.int(90, 400)},"wgPageParseReport":{"limitreport":{"cputime":"1.482","walltime":"1.690","ppvisitednodes":{"value":18231,"limit":1000000},"postexpandincludesize":{"value":402811,"limit":2097152}}}});});</script>
</body>`;
    return `<!DOCTYPE html>\n<html class="client-nojs vector-feature-language-in-header-enabled" lang="en" dir="ltr">\n<head>\n${head}\n</head>\n${body}\n</html>\n`;
  },
};
