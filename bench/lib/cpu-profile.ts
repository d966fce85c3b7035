import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

/** A V8 CPU profile as the inspector returns it (the `.cpuprofile` format). */
interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: {
      readonly functionName: string;
      readonly url: string;
      readonly lineNumber: number;
    };
    readonly hitCount?: number;
    readonly children?: readonly number[];
  }[];
  readonly startTime: number;
  readonly endTime: number;
}

/** Self time of one function or one area of the code. */
export interface ProfileEntry {
  readonly name: string;
  readonly ms: number;
  /** Share of the profiled thread's busy time (idle excluded). */
  readonly share: number;
}

/**
 * A function whose inclusive time (itself and everything it calls synchronously) is
 * reported: frames named `functionName` in a file whose URL contains `urlIncludes`.
 */
export interface InclusiveGroup {
  readonly label: string;
  readonly functionName: string;
  readonly urlIncludes: string;
}

/** A summary of a profile: busy and idle time, top functions and areas by self time. */
export interface ProfileSummary {
  readonly file: string;
  readonly wallMs: number;
  readonly busyMs: number;
  readonly idleMs: number;
  readonly functions: readonly ProfileEntry[];
  readonly areas: readonly ProfileEntry[];
  /** Inclusive time of each {@link InclusiveGroup}. */
  readonly inclusive: readonly ProfileEntry[];
}

/**
 * Profile this thread with V8's sampling CPU profiler (the one `node --cpu-prof` uses)
 * while `work` runs, write the `.cpuprofile` to `file` (open it in Chrome DevTools) and
 * summarise self time by function and by area (package or source folder).
 */
export async function profileWhile(
  file: string,
  work: () => Promise<unknown>,
  groups: readonly InclusiveGroup[] = [],
  top = 15,
): Promise<ProfileSummary> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    let failed = false;
    let failure: unknown;
    try {
      await work();
    } catch (error) {
      failed = true;
      failure = error;
    }
    const { profile } = (await session.post('Profiler.stop')) as unknown as {
      profile: CpuProfile;
    };
    await session.post('Profiler.disable');
    if (failed) throw failure;
    writeFileSync(file, JSON.stringify(profile));
    return summarise(file, profile, groups, top);
  } finally {
    session.disconnect();
  }
}

function summarise(
  file: string,
  profile: CpuProfile,
  groups: readonly InclusiveGroup[],
  top: number,
): ProfileSummary {
  const wallMs = (profile.endTime - profile.startTime) / 1000;
  const samples = profile.nodes.reduce((sum, n) => sum + (n.hitCount ?? 0), 0);
  const msPerSample = samples === 0 ? 0 : wallMs / samples;
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  let idle = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idle += hits;
      continue;
    }
    const where = url === '' ? '' : ` ${shortPath(url)}:${lineNumber + 1}`;
    const name = `${functionName || '(anonymous)'}${where}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + hits);
    const area = areaOf(functionName, url);
    byArea.set(area, (byArea.get(area) ?? 0) + hits);
  }
  const busy = samples - idle;
  const entries = (map: Map<string, number>): ProfileEntry[] =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, hits]) => ({
        name,
        ms: hits * msPerSample,
        share: busy === 0 ? 0 : hits / busy,
      }));
  const inclusive = inclusiveHits(profile, groups).map((hits, i) => ({
    name: (groups[i] as InclusiveGroup).label,
    ms: hits * msPerSample,
    share: busy === 0 ? 0 : hits / busy,
  }));
  return {
    file,
    wallMs,
    busyMs: busy * msPerSample,
    idleMs: idle * msPerSample,
    functions: entries(byFunction),
    areas: entries(byArea),
    inclusive,
  };
}

/** Samples in each group's frames and below them, counting nested matches once. */
function inclusiveHits(profile: CpuProfile, groups: readonly InclusiveGroup[]): number[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const children = new Set(profile.nodes.flatMap((n) => n.children ?? []));
  const totals = groups.map(() => 0);
  const subtree = (id: number): number => {
    const node = byId.get(id);
    if (node === undefined) return 0;
    return (node.hitCount ?? 0) + (node.children ?? []).reduce((sum, c) => sum + subtree(c), 0);
  };
  const visit = (id: number, inside: ReadonlySet<number>): void => {
    const node = byId.get(id);
    if (node === undefined) return;
    let now = inside;
    for (const [g, group] of groups.entries()) {
      if (
        !inside.has(g) &&
        node.callFrame.functionName === group.functionName &&
        node.callFrame.url.includes(group.urlIncludes)
      ) {
        totals[g] = (totals[g] ?? 0) + subtree(id);
        now = new Set([...now, g]);
      }
    }
    for (const child of node.children ?? []) visit(child, now);
  };
  for (const node of profile.nodes) if (!children.has(node.id)) visit(node.id, new Set());
  return totals;
}

/** A path short enough to read: the package and file, not the whole store path. */
function shortPath(url: string): string {
  const path = url.replace(/^file:\/\//, '');
  const store = /node_modules\/\.pnpm\/[^/]+\/node_modules\/(.+)$/.exec(path);
  if (store?.[1]) return store[1];
  const workspace = /\/((?:packages|apps)\/.+)$/.exec(path);
  if (workspace?.[1]) return workspace[1];
  return path;
}

/** The area a function belongs to: a dependency, a workspace package, Node, or V8. */
function areaOf(functionName: string, url: string): string {
  if (url === '') {
    return functionName.startsWith('(') ? `V8 ${functionName}` : 'V8 builtins / native';
  }
  if (url.startsWith('node:')) return 'node internals';
  const path = url.replace(/^file:\/\//, '');
  const dep = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (dep?.[1]) return dep[1];
  const pkg = /\/packages\/([^/]+)\//.exec(path);
  if (pkg?.[1]) return `@storefront/${pkg[1]}`;
  const server = /\/apps\/server\/src\/([^/]+(?:\/[^/]+)?)/.exec(path);
  if (server?.[1]) return `server ${server[1].replace(/\.ts$/, '')}`;
  return shortPath(url);
}
