// Types of dev-ready.mjs (plain JavaScript so that `npm run dev` starts without a compiler).
export declare const FIRST_SCREEN: readonly string[];
export declare function dependencyUrls(code: string): string[];
export declare function staticImports(code: string): string[];
export declare function warmUp(
  base: string,
  opts?: { timeoutMs?: number; maxModules?: number },
): Promise<number>;
