/** The part of solc-js (the `solc` npm package, which ships no types) that the compile script uses. */
declare module 'solc' {
  const solc: {
    /** Standard JSON in, standard JSON out. */
    compile(input: string): string;
    /** The full compiler version, e.g. `0.8.26+commit.8a97fa7a.Emscripten.clang`. */
    version(): string;
  };
  export default solc;
}
