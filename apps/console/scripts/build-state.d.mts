export declare const appDir: string;
export declare const repoRoot: string;
export declare const BUILD_SOURCES: readonly string[];
export declare function distDirName(): string;
export declare function buildIsFresh(dist?: string): boolean;
