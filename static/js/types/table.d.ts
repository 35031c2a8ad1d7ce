// The shapes the browser's modules share, for `tsc --checkJs` (`make lint`; docs/style.md,
// "The browser's JavaScript"). Declarations only: nothing here is served or run. The wire's
// shapes follow docs/protocol.md; a field the table does not read is left out or loose.

/** A state frame (docs/protocol.md, "Server frames"). */
interface Frame {
  type: "state";
  /** The match version: what a command says it saw, what frames are ordered by. */
  version: number;
  view: View;
  events?: GameEvent[];
  clock?: Clock | null;
  seats?: SeatInfo[];
  actor?: string | null;
  log?: { version: number; actor?: string; events: GameEvent[] }[];
}

/** Any frame the socket hands the table: a state frame, an error, an ack, chat… */
interface AnyFrame {
  type: string;
  version?: number;
  code?: string;
  message?: string;
  rule?: string | null;
  [key: string]: any;
}

interface Clock {
  turn_seconds: number | null;
  turn_started: number | null;
  resume_at: number | null;
}

interface SeatInfo {
  seat: number;
  kind: string;
  state: string;
  standin: boolean;
  timeouts: number;
}

/** An event of a move, as this audience sees it (docs/protocol.md, "Events"). */
interface GameEvent {
  kind: string;
  seat?: number;
  [key: string]: any;
}

/** A seat's (or the spectators') view of the game: engine.view_for (docs/protocol.md, "The view"). */
interface View {
  variant: string;
  seat: number | null;
  round: number;
  first: number;
  turn: number;
  players: number;
  phase: "draw" | "play" | "over";
  /** The number of moves played in the engine: not the match version (Frame.version). */
  version: number;
  names: string[];
  hand: string[] | null;
  hand_sizes: number[];
  stock_size: number;
  discard: string[];
  melds: TableMeld[];
  scores: { totals: number[]; rounds: any[] };
  you?: You;
  lower_wins?: boolean;
  winners?: number[];
  commitment?: string;
  revealed_seed?: string;
  atu?: string | null;
  atu_taken_by?: number | null;
  consumed_jokers?: string[];
  /** The family's and the variant's own fields (the gin family's `gin`, Knock-108's `stage`,
   * `stakes` and `in_game`, the rummy cycle's `opened`…), read by the family's module alone. */
  [key: string]: any;
}

interface TableMeld {
  id: number;
  owner: number;
  kind: string;
  cards: string[];
  points: number;
  placed_by?: number[];
}

/** The `you` block of hints: what this seat may try now. */
interface You {
  my_turn: boolean;
  moves: string[];
  discards: string[];
  takeable?: string[];
  opening?: any;
  best_melds?: string[][];
  knock_discards?: string[];
  deadwood?: number;
  knock?: { card: string; kind: string; points: number } | null;
  buy_back?: { cost: number; record: number } | null;
  [key: string]: any;
}

/** The move being built (draft.js). */
interface Draft {
  take: string | null;
  melds: string[][];
  layoffs: { meld: number; cards: string[] }[];
  /** A joker exchange: the card put in, and the key of the joker it frees ("freed:<n>"). */
  exchanges: { meld: number; card: string; freedKey: string }[];
  declared: Record<string, string>;
  freed: number;
}

type FamilyName = "rummy" | "gin" | "knock108";

/** What the regions read about the model, worked out once per render (render.js, facts). */
interface Facts {
  view: View;
  you: You | null;
  seated: boolean;
  clock: Clock | null;
  paused: boolean;
  over: boolean;
  myTurn: boolean;
  moves: string[];
  busy: boolean;
  turnOpen: boolean;
  canAct: boolean;
  canBuild: boolean;
  taking: boolean;
  arranging: boolean;
  family: FamilyName;
  now: number;
}

/** A rule family's module on the table (static/js/table/families/). */
interface Family {
  name: FamilyName;
  takeAlone: boolean;
  knockMelds: boolean;
  laysAll: boolean;
  roundWord(): string;
  step(view: View): string | null;
  isOut(view: View, seat: number): boolean;
  pileLabel(): string;
  totalTitle(): string;
  totalLabel(): string;
  bestMelds(f: Facts): boolean;
  hint(f: Facts, step: string | null): string;
  knockControls(f: Facts, act: Actions, one: string | null, discardable: Set<string>, draft: Draft): HTMLElement[];
  turnText(f: Facts, name: string): string;
  board(model: Model, f: Facts): any;
  meldLabel(f: Facts, meld: TableMeld): string;
  badges(f: Facts, seat: number): HTMLElement[];
  mine(f: Facts): HTMLElement | null;
  taken(f: Facts): string | null;
  scoring(view: View): string;
  lineParts(line: any): string[];
  footRows(f: Facts, signed: (n: number) => string): HTMLElement[];
  extras(model: Model, f: Facts): HTMLElement[];
  lastDeal(view: View, last: any): HTMLElement | null;
  overText(f: Facts): string;
  roundOver(view: View, e: GameEvent, round: string, winner: string, declared: (result: string) => string): string;
}

/** A line of the move log. */
interface LogLine {
  version: number;
  text: string;
  standin: boolean;
  kind: string;
}

/** The table's model (state.js): everything a render reads. */
interface Model {
  frame: Frame;
  status: string;
  statusDetail: string;
  loginUrl: string;
  selected: string[];
  draft: Draft;
  sortMode: string;
  error: { code: string; message: string; rule: string | null } | null;
  errorShown?: Model["error"];
  pending: any;
  fresh: string[];
  lastEvents: string;
  lastDeal: GameEvent | null;
  errorAt: string | null;
  pendingAt: string | null;
  rack: { slots: (string | null)[] };
  rackSig: string;
  rackCheck: { sig: string; data: any } | null;
  rackCheckError: boolean;
  rackRound?: number;
  rackRows?: number;
  rackCols?: number;
  atuOnRack: boolean;
  wantSlot: { key: string; index: number } | null;
  returning: boolean;
  prefs: { large: boolean; four: boolean; sound: boolean };
  drawer: string | null;
  log: LogLine[];
  logDone: boolean;
  summaryFor: string | null;
  summaryClosed: string | null;
  alerts: string[];
  alertedTurn?: string;
  warnedTurn?: string;
  rackFocus: string | null;
  moving: string | null;
  moreOpen: boolean;
  rowOpen: boolean;
  rematchSlot?: HTMLElement;
  hasChat?: boolean;
  roomName?: string;
  roomUrl?: string;
  setPref(name: "large" | "four" | "sound", on: boolean): void;
  now(): number;
  handOrder(): string[];
}

/** What the table's buttons, keys and drops call (actions.js). */
interface Actions {
  [name: string]: (...args: any[]) => void;
}

/** What the table needs of its connection: the match socket (connection.js) or a host's. */
interface TableConnection {
  pending: any;
  start(): void;
  sendCommand(command: object): boolean;
  sendRaw(message: object): boolean;
  attach?(handlers: object): void;
  checkRack?(query: object): Promise<any>;
}

/** A page that runs the table on its own connection (practice, puzzles): docs/practice.md. */
interface TableHost {
  frame: Frame;
  key: string;
  connection: TableConnection & { attach(handlers: object): void; checkRack(query: object): Promise<any> };
}

/** Practice's page configuration (games/views/practice.py). */
interface PracticeDownload {
  url: string;
  size: number;
  cache: string;
}

interface PracticeConfig {
  sw: string;
  scope: string;
  downloads: PracticeDownload[];
  precache: string[];
  caches: { app: string; pyodide: string };
  [key: string]: any;
}

interface Window {
  remiTableHost?: TableHost;
  remiTable?: object;
  remiPractice?: object;
  remiPuzzle?: object;
  /** Django's JavaScript catalog (/jsi18n/), loaded before any module. */
  gettext?: (text: string) => string;
  ngettext?: (singular: string, plural: string, n: number) => string;
  interpolate?: (format: string, values: object, named: boolean) => string;
  pgettext?: (context: string, text: string) => string;
  webkitAudioContext?: typeof AudioContext;
  /** The Navigation API (not in every browser). */
  navigation?: EventTarget;
  loadPyodide?: (options: object) => Promise<any>;
}

// The pages' scripts query HTML elements only (no SVG or MathML is looked up by a selector): a
// selector's element is typed HTMLElement, not the DOM library's bare Element, so that `dataset`,
// `focus()`, `disabled` checks and the like are checked without a cast at every query.
interface ParentNode {
  querySelector<E extends Element = HTMLElement>(selectors: string): E | null;
  querySelectorAll<E extends Element = HTMLElement>(selectors: string): NodeListOf<E>;
}

interface Element {
  closest<E extends Element = HTMLElement>(selectors: string): E | null;
}
