/**
 * The tau2-bench files Baton reads, pinned to upstream commits by SHA-256. The project commits
 * this manifest, never the data: the files are read from a folder or downloaded from the pinned
 * commits at run time, and each is checked against its hash.
 */
export const TAU2_COMMIT = 'a2c024725189473d2d7cea3a5cfdbcc67478e41f';
/** tau2-bench's first public release, whose task files most published numbers use. */
export const TAU2_RELEASE_COMMIT = '37199f36924c8896f5e048360691f8476cd89ba1';

export interface Tau2ManifestEntry {
  /** Path inside a tau2 data folder (the layout Baton expects). */
  file: string;
  /** Path in the upstream repository at `commit`. */
  upstream: string;
  commit: string;
  bytes: number;
  sha256: string;
}

const entry = (file: string, upstream: string, commit: string, bytes: number, sha256: string): Tau2ManifestEntry => ({
  file,
  upstream,
  commit,
  bytes,
  sha256,
});
const domains = 'data/tau2/domains';

export const TAU2_MANIFEST: readonly Tau2ManifestEntry[] = [
  entry(
    'airline/db.json',
    `${domains}/airline/db.json`,
    TAU2_COMMIT,
    7_042_725,
    '1af9fea6e03ca7ca15a22bb3fcaf3e351393e3fc9070b6777947da8996f7531b',
  ),
  entry(
    'airline/policy.md',
    `${domains}/airline/policy.md`,
    TAU2_COMMIT,
    7_676,
    '10dc0525421521208be39cee235bba84a16e2bcba9899eb93d92cd81d2f62fc4',
  ),
  entry(
    'airline/tasks.json',
    `${domains}/airline/tasks.json`,
    TAU2_COMMIT,
    155_528,
    'ccd8ba737b4cc371415af70151187788f728d6108d0916e73bb4317b40542052',
  ),
  entry(
    'airline/split_tasks.json',
    `${domains}/airline/split_tasks.json`,
    TAU2_COMMIT,
    1_443,
    'b22ced4d9a9850ac9aea31c53bdcb6d6009058140bd9acc7db37c1d36222ba8b',
  ),
  entry(
    'airline/release-37199f3/tasks.json',
    `${domains}/airline/tasks.json`,
    TAU2_RELEASE_COMMIT,
    149_096,
    '40d692b3fca780f46b56d48b447fd8db79a653f216667b8ed7c1a88380544532',
  ),
  entry(
    'retail/db.json',
    `${domains}/retail/db.json`,
    TAU2_COMMIT,
    2_811_616,
    '413a65160adbdb5fde0ffc0015c49b6d70250b10c18128de169b597af7766765',
  ),
  entry(
    'retail/policy.md',
    `${domains}/retail/policy.md`,
    TAU2_COMMIT,
    6_699,
    '2c9652afbce57d6e087768d37cda64d31c53d50b3e3225cfdb791bac66466467',
  ),
  entry(
    'retail/tasks.json',
    `${domains}/retail/tasks.json`,
    TAU2_COMMIT,
    345_982,
    '8e03ebce7901bd6218e7a7dc3105faa9324091a68058f7fe61c65262868812e8',
  ),
  entry(
    'retail/split_tasks.json',
    `${domains}/retail/split_tasks.json`,
    TAU2_COMMIT,
    3_263,
    'ed0580ec52575b63fbf76568af42490da6ee7783ecb4aa81af46961291358f20',
  ),
  entry(
    'retail/release-37199f3/tasks.json',
    `${domains}/retail/tasks.json`,
    TAU2_RELEASE_COMMIT,
    328_166,
    '76e1fa649a359bef2d2fd30eae834b99d261d84e2e5d364856f6632fdf778dfd',
  ),
  entry(
    'user_simulator/simulation_guidelines.md',
    'data/tau2/user_simulator/simulation_guidelines.md',
    TAU2_COMMIT,
    1_449,
    '740a29dfa64d7bc08eea3bf7493575b914a63f744acbaf7f199ee07eddaf72d3',
  ),
  entry(
    'user_simulator/simulation_guidelines_tools.md',
    'data/tau2/user_simulator/simulation_guidelines_tools.md',
    TAU2_COMMIT,
    2_747,
    'cbf3d8a4d8642fd04e559862f1afef55d7dd4e6a7e727ca49e239023c599de0c',
  ),
];
