/* index.d.ts -- types of the sudokud package.
 *
 * Option and result keys are the wire's (docs/protocol.md), snake_case as
 * sent; the client's own options (signal and timeout on a call; socket,
 * timeout and maxMessage on the client) are never sent.  64-bit integers
 * arrive as numbers except generate's `seed`, a bigint.
 */

/** A puzzle: n*n symbols (`.` or `0` blank, `1`-`9` then `A`-`P`), n*n integers (0 blank), or those symbols as bytes. */
export type Puzzle = string | number[] | Uint8Array;

/** A side of a grid. */
export type Size = 4 | 9 | 16 | 25;

export type Difficulty = 'easy' | 'medium' | 'hard' | 'expert' | 'extreme';

export type Symmetry = 'none' | 'rotate180' | 'rotate90' | 'mirror' | 'flip' | 'diagonal';

/** A variant rule by its wire key (docs/protocol.md, "Variant rules"). */
export type RuleName =
    | 'diagonals'
    | 'windows'
    | 'regions'
    | 'anti_knight'
    | 'anti_king'
    | 'non_consecutive'
    | 'cages';

/** A killer cage: [sum, [cell, ...]], cells 0-based row-major; its cells hold distinct digits adding up to sum. */
export type Cage = [number, number[]];

/** Variant rules of a puzzle; absent, null or {} is classic Sudoku. Rules combine freely. */
export interface Rules {
    /** Both main diagonals are houses (X-sudoku). */
    diagonals?: boolean;
    /** Windoku: the (b-1)^2 extra b x b windows offset by one from the boxes. */
    windows?: boolean;
    /** Jigsaw: each cell's region, n*n symbols (`1`-`9`, `A`-`P`), n connected cells each, replacing the boxes. */
    regions?: string;
    /** No digit a knight's move from itself. */
    anti_knight?: boolean;
    /** No digit a king's move (diagonals included) from itself. */
    anti_king?: boolean;
    /** Orthogonal neighbours never hold consecutive digits. */
    non_consecutive?: boolean;
    /** Killer cages; cells may stay uncovered. */
    cages?: Cage[];
}

/** generate's rules: `regions: true` and `cages: true` draw a jigsaw layout
 * or killer cages from the seed; `givens: true` (with `cages: true`) keeps
 * givens besides the cages (default: none). */
export interface GenerateRules extends Omit<Rules, 'regions' | 'cages'> {
    regions?: string | true;
    cages?: Cage[] | true;
    givens?: boolean;
}

/** The codes the daemon sends. */
export type DaemonCode =
    | 'bad_request'
    | 'unknown_method'
    | 'bad_puzzle'
    | 'unknown_solver'
    | 'unsupported'
    | 'timeout'
    | 'cancelled'
    | 'overloaded'
    | 'too_large'
    | 'internal'
    | 'not_unique';

/** The codes the client makes: no daemon reached, connection lost, not protocol v1, no answer within `timeout`, arguments that cannot be sent. */
export type ClientCode = 'connect' | 'closed' | 'protocol' | 'client_timeout' | 'usage';

export declare const DAEMON_CODES: readonly DaemonCode[];
export declare const CLIENT_CODES: readonly ClientCode[];

/** Every rejection of this package. Program against `code`; `message` is for people. */
export declare class SudokudError extends Error {
    constructor(code: string, message: string, options?: { fatal?: boolean; cause?: unknown });
    readonly name: 'SudokudError';
    /** A DaemonCode or ClientCode (a later daemon may send others). */
    readonly code: DaemonCode | ClientCode | (string & {});
    /** True when the error ended the connection rather than answering one request. */
    readonly fatal: boolean;
}

export interface ClientOptions {
    /** Socket path; else $SUDOKUD_SOCKET, else $XDG_RUNTIME_DIR/sudokud.sock (not root), then /run/sudokud/sudokud.sock. */
    socket?: string;
    /** Milliseconds a call waits for its answer before it rejects with `client_timeout` (0: forever, the default). */
    timeout?: number;
    /** Largest message accepted from the daemon, in bytes (default 16 MiB). */
    maxMessage?: number;
}

/** The client's own options, accepted by every call. */
export interface CallOptions {
    /** Aborting it sends `cancel` to the daemon and rejects the call with `cancelled`. */
    signal?: AbortSignal;
    /** Milliseconds to wait for the answer (overrides the client's `timeout`; 0: forever). */
    timeout?: number;
}

export interface SolveOptions extends CallOptions {
    /** The plugin (see solvers()); null or absent: the daemon's default for the size. */
    solver?: string | null;
    /** Stop after this many solutions (1: any; 2: prove uniqueness). */
    limit?: number | bigint;
    /** The daemon's deadline in ms, capped by its --timeout-ms. */
    timeout_ms?: number;
    /** Variant rules; the solution is checked against every one. */
    rules?: Rules | null;
}

export interface SolveResult {
    status: 'solved' | 'unsolvable';
    /** In the puzzle's form: a string for a string or bytes, an array for an array; null when unsolvable. */
    solution: string | number[] | null;
    /** Solutions found, 0..limit; count == limit means "at least". */
    count: number;
    solver: string;
    elapsed_us: number;
    guesses: number;
}

export interface SolverInfo {
    name: string;
    version: string;
    description: string;
    sizes: number[];
    default: boolean;
    default_sizes: number[];
    explain: boolean;
    /** The variant rules its solve takes (empty: classic only); absent
     * from an older daemon. */
    rules?: RuleName[];
    /** The variant rules its explain and rate take. */
    explain_rules?: RuleName[];
}

export interface SolverStats {
    solved: number;
    unsolvable: number;
    timeouts: number;
    errors: number;
    busy_us: number;
}

export interface Stats {
    uptime_s: number;
    connections: number;
    connections_total: number;
    requests: number;
    errors: number;
    in_flight: number;
    stuck_workers: number;
    solvers: Record<string, SolverStats>;
}

export interface VersionInfo {
    /** The daemon's version, x.y.z. */
    daemon: string;
    /** The wire protocol's version (1). */
    protocol: number;
    /** The plugin ABI, major.minor. */
    abi: string;
}

export interface ExplainOptions extends CallOptions {
    /** At most this many steps (1: a hint). */
    steps?: number;
    /** The player's grid, same size, keeping every given: steps start from it. */
    progress?: Puzzle | null;
    /** An explaining plugin; default: the first one loaded. */
    solver?: string | null;
    timeout_ms?: number;
    /** The player's pencil marks: n*n*n characters (each cell's n digits,
     * '.' or '0' for a removed one) or one digit list per cell. */
    candidates?: string | number[][] | null;
    /** How much of each step: 1 technique, 2 and house, 3 and cells, 4 all (default). */
    level?: 1 | 2 | 3 | 4 | null;
    /** Variant rules; every step is replayed under them. */
    rules?: Rules | null;
}

/** A house: type and 0-based index (docs/protocol.md). */
export interface House {
    type: 'row' | 'column' | 'box' | 'region' | 'diagonal' | 'window' | 'cage';
    index: number;
}

/** [cell, value]: cell 0-based row-major, value 1..n. */
export type CellValue = [number, number];

export interface Step {
    /** snake_case, from techniques.md, or `reveal` / `mistake`. */
    technique: string;
    rating: number;
    /** Absent below level 4, as are eliminations and text (cells below 3). */
    placements: CellValue[];
    eliminations: CellValue[];
    cells: number[];
    text: string;
    /** Levels 2 and 3 only: where to look. */
    house?: House;
    /** A mistake in the pencil marks: the candidates to mark again. */
    restore?: CellValue[];
}

export interface Explanation {
    steps: Step[];
    status: 'solved' | 'partial' | 'stuck';
    rating: number;
    difficulty: Difficulty;
    hardest: string;
    /** Sudoku Explainer's pearl and diamond (0: not rated). */
    ep: number;
    ed: number;
    solver: string;
    elapsed_us: number;
}

export interface RateOptions extends CallOptions {
    solver?: string | null;
    timeout_ms?: number;
    rules?: Rules | null;
}

export interface Rating {
    rating: number;
    difficulty: Difficulty;
    hardest: string;
    steps: number;
    /** False when the techniques got stuck (rating 10.0). */
    logic: boolean;
    /** Sudoku Explainer's pearl and diamond (0: not rated). */
    ep: number;
    ed: number;
    solver: string;
    elapsed_us: number;
}

export interface GenerateOptions extends CallOptions {
    size?: Size;
    /** 1..1000. */
    count?: number;
    /** 0..2^64-1: the same daemon version, options and seed give the same puzzles. */
    seed?: number | bigint;
    symmetry?: Symmetry;
    /** No given (or orbit of givens) can go without losing uniqueness; default true. */
    minimal?: boolean;
    difficulty?: Difficulty;
    /** 0..1000, inclusive; not with `difficulty`. */
    min_rating?: number;
    max_rating?: number;
    /** The counting plugin that proves uniqueness. */
    solver?: string | null;
    timeout_ms?: number;
    /** Variant puzzles: each answer carries its full rules. */
    rules?: GenerateRules | null;
}

export interface GeneratedPuzzle {
    /** Line form, `.` blanks. */
    puzzle: string;
    solution: string;
    givens: number;
    /** Its own seed: count 1 with it and the same options makes it again. */
    seed: bigint;
    rating: number;
    /** "" when no plugin could rate it. */
    difficulty: Difficulty | '';
    symmetry: Symmetry;
    /** With `rules` asked: the puzzle's full rules (the drawn regions and
     * cages), to send back to solve as they are. */
    rules?: Rules;
}

export interface SolveManyOptions extends SolveOptions {
    /** Requests in flight at most, 1..4096 (default 64). */
    window?: number;
}

export declare class Client {
    constructor(options?: ClientOptions);
    /** A client already connected; rejects with `connect` when no daemon answers. */
    static connect(options?: ClientOptions): Promise<Client>;
    /** The socket of the last connection made (null before the first). */
    readonly path: string | null;
    /** Connect now rather than on the first call. */
    connect(): Promise<this>;
    /** Reject every call in flight with `closed` and hang up. */
    close(): Promise<void>;

    ping(options?: CallOptions): Promise<'pong'>;
    solvers(options?: CallOptions): Promise<SolverInfo[]>;
    stats(options?: CallOptions): Promise<Stats>;
    version(options?: CallOptions): Promise<VersionInfo>;
    solve(puzzle: Puzzle, options?: SolveOptions): Promise<SolveResult>;
    explain(puzzle: Puzzle, options?: ExplainOptions): Promise<Explanation>;
    rate(puzzle: Puzzle, options?: RateOptions): Promise<Rating>;
    generate(options?: GenerateOptions): Promise<GeneratedPuzzle[]>;
    /** Answers in input order: a result, or the daemon's error for that puzzle. A lost connection or the signal rejects the whole batch. */
    solveMany(
        puzzles: Iterable<Puzzle>,
        options?: SolveManyOptions,
    ): Promise<Array<SolveResult | SudokudError>>;
    /** Any method by name, the result as decoded. */
    call(method: string, params?: unknown[], options?: CallOptions): Promise<unknown>;
}

/** Shorthand for Client.connect(options). */
export declare function connect(options?: ClientOptions): Promise<Client>;

/** The sockets the client tries, in order (the rule of libsudoku-client). */
export declare function socketCandidates(
    explicit?: string,
    env?: Record<string, string | undefined>,
    euid?: number,
): string[];

export declare const SYSTEM_SOCKET: string;
