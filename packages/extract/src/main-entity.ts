/**
 * Types whose object is the page's own content (ranked first when choosing the main
 * entity): products, creative works, events, offers of work, listings of one thing.
 */
export const CONTENT_TYPES: ReadonlySet<string> = new Set([
  'Product',
  'ProductGroup',
  'ProductModel',
  'IndividualProduct',
  'SomeProducts',
  'Vehicle',
  'Car',
  'Book',
  'Recipe',
  'Article',
  'NewsArticle',
  'BlogPosting',
  'TechArticle',
  'ScholarlyArticle',
  'Report',
  'SocialMediaPosting',
  'DiscussionForumPosting',
  'LiveBlogPosting',
  'OpinionNewsArticle',
  'AnalysisNewsArticle',
  'ReportageNewsArticle',
  'ReviewNewsArticle',
  'BackgroundNewsArticle',
  'SatiricalArticle',
  'Review',
  'CriticReview',
  'UserReview',
  'Event',
  'MusicEvent',
  'SportsEvent',
  'BusinessEvent',
  'EducationEvent',
  'Festival',
  'TheaterEvent',
  'ScreeningEvent',
  'ComedyEvent',
  'ExhibitionEvent',
  'Course',
  'JobPosting',
  'SoftwareApplication',
  'MobileApplication',
  'WebApplication',
  'VideoGame',
  'Movie',
  'TVSeries',
  'TVSeason',
  'TVEpisode',
  'Episode',
  'MusicRecording',
  'MusicAlbum',
  'MusicPlaylist',
  'PodcastSeries',
  'PodcastEpisode',
  'VideoObject',
  'AudioObject',
  'Dataset',
  'HowTo',
  'FAQPage',
  'QAPage',
  'Question',
  'Photograph',
  'Painting',
  'VisualArtwork',
  'Thesis',
  'Legislation',
  'MenuItem',
  'Trip',
  'Service',
]);

/** The `WebPage` family: the page as a page, second choice. */
export const PAGE_TYPES: ReadonlySet<string> = new Set([
  'WebPage',
  'ItemPage',
  'AboutPage',
  'CheckoutPage',
  'CollectionPage',
  'ContactPage',
  'MedicalWebPage',
  'ProfilePage',
  'RealEstateListing',
  'SearchResultsPage',
]);

/** Site furniture: never the main entity while anything else is there. */
export const CHROME_TYPES: ReadonlySet<string> = new Set([
  'WebSite',
  'BreadcrumbList',
  'ListItem',
  'SiteNavigationElement',
  'WPHeader',
  'WPFooter',
  'WPSideBar',
  'WPAdBlock',
  'SearchAction',
  'EntryPoint',
  'ReadAction',
  'ImageObject',
]);

/**
 * Rank of a node's types for the main-entity choice, lower is better: 0 content types,
 * 1 the WebPage family, 2 any other type (Organization, Person, LocalBusiness, ItemList,
 * unknown types), 3 site furniture, 4 no `@type` at all. A node with several types takes
 * its best rank.
 */
export function typeRank(types: readonly string[]): number {
  if (types.length === 0) return 4;
  let rank = 3;
  for (const type of types) {
    if (CONTENT_TYPES.has(type)) return 0;
    if (PAGE_TYPES.has(type)) rank = Math.min(rank, 1);
    else if (!CHROME_TYPES.has(type)) rank = Math.min(rank, 2);
  }
  return rank;
}

/** The local names of a node's `@type` (`https://schema.org/Product`, `schema:Product` → `Product`). */
export function typeNames(node: Readonly<Record<string, unknown>>): string[] {
  const declared = Object.hasOwn(node, '@type') ? node['@type'] : undefined;
  const list = Array.isArray(declared) ? declared : [declared];
  const names: string[] = [];
  for (const type of list) {
    if (typeof type !== 'string') continue;
    const trimmed = type.trim().replace(/[/#:]+$/, '');
    const local = trimmed.slice(
      Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('#'), trimmed.lastIndexOf(':')) + 1,
    );
    if (local !== '') names.push(local);
  }
  return names;
}

/** The first node of the best rank, in the order given; null for none. */
export function chooseMain<T extends Readonly<Record<string, unknown>>>(
  nodes: readonly T[],
): T | null {
  let best: T | null = null;
  let bestRank = Number.POSITIVE_INFINITY;
  for (const node of nodes) {
    const rank = typeRank(typeNames(node));
    if (rank < bestRank) {
      best = node;
      bestRank = rank;
    }
  }
  return best;
}
