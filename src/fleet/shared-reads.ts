/**
 * The Palette reads a fleet's clusters share: every cluster of a fleet reads the same pack registry
 * and the same profile versions (the ones they run, the shared new versions the first of them made),
 * so the fleet reads each once and every cluster's session gets that answer, instead of 200 clusters
 * asking Palette the same thing through one rate budget (the pack registry's is 10 a second).
 *
 * - The pack registry (`/v1/packs...`, `/v1/registries/metadata`): a pack version's defaults and a
 *   registry's tags do not change during a fleet: read once for the fleet.
 * - Profile versions (`GET /v1/clusterprofiles/{uid}...`) and the profile lists
 *   (`/v1/dashboard/clusterprofiles...`): shared for at most `profileTtlMs`, and forgotten at once when
 *   any cluster of the fleet sends a change to a profile (a clone adds a version to its source's list;
 *   a draft or a publish changes the version itself). A read that was on its way when the change
 *   was sent is not given to anyone after it.
 * - Nothing else: each cluster's own state (`/v1/spectroclusters/...`, its events, its variables'
 *   values) is its own, read by its own session every time.
 *
 * A read that fails is not kept: the next asks again. What is kept is parsed once for all (ParsedOnce).
 */
import { deepFreeze } from '../io/deep-freeze.js';
import type { Call, Reply, SharedReads } from '../palette/transport.js';

const REGISTRY = [/^\/v1\/packs(\/|\?|$)/, /^\/v1\/registries\/metadata$/];
const PROFILES = [/^\/v1\/clusterprofiles\/[^/?]+(\/(packs\/[^/?]+\/manifests|variables))?(\?|$)/, /^\/v1\/dashboard\/clusterprofiles(\/metadata)?(\?|$)/];

interface Entry {
  answer: Promise<Reply>;
  at: number;
  /** The profiles' generation it was read in (registry reads: -1, they never go stale). */
  generation: number;
}

export interface FleetReadsStats {
  /** Reads answered from what another cluster read. */
  shared: number;
  /** Reads sent to Palette. */
  sent: number;
}

/**
 * A shared answer: its text, and its JSON parsed once for every cluster that reads it. Each cluster
 * parsing a profile version or a pack's tags again allocated the whole document each time (all of
 * it on the long-lived heap: V8 parses a text of 100 k characters or more there) and kept its own
 * copy of every pack's values; now they share one, frozen so that no reader can change it for another.
 */
class ParsedOnce implements Reply {
  #json: { value: unknown } | undefined;

  constructor(private readonly reply: Reply) {}

  get status(): number {
    return this.reply.status;
  }

  get text(): string {
    return this.reply.text;
  }

  json(): unknown {
    this.#json ??= { value: deepFreeze(JSON.parse(this.reply.text)) };
    return this.#json.value;
  }
}

export class FleetReads implements SharedReads {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every change to a profile: profile reads from before it are not given again. */
  private generation = 0;
  readonly stats: FleetReadsStats = { shared: 0, sent: 0 };

  constructor(
    private readonly now: () => number = Date.now,
    private readonly profileTtlMs = 60_000,
  ) {}

  read(call: Call, send: () => Promise<Reply>): Promise<Reply> | undefined {
    const registry = REGISTRY.some((r) => r.test(call.path));
    if (!registry && !PROFILES.some((r) => r.test(call.path))) return undefined;
    const key = `${call.method} ${call.path}${call.body === undefined ? '' : ` ${JSON.stringify(call.body)}`}`;
    const known = this.entries.get(key);
    const fresh = known && (registry || (known.generation === this.generation && this.now() - known.at < this.profileTtlMs));
    if (fresh) {
      this.stats.shared++;
      return known.answer;
    }
    this.stats.sent++;
    const entry: Entry = { answer: send().then((r) => new ParsedOnce(r)), at: this.now(), generation: registry ? -1 : this.generation };
    this.entries.set(key, entry);
    entry.answer.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return entry.answer;
  }

  changed(call: Call): void {
    if (!call.path.startsWith('/v1/clusterprofiles')) return;
    this.generation++;
    for (const [key, e] of this.entries) if (e.generation >= 0) this.entries.delete(key);
  }
}
