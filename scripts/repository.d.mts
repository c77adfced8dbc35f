// The types of repository.mjs's export, for the test that holds install.sh and the docs to it.

/** owner/name of the GitHub repository package.json's `repository` names, or undefined when it names none. */
export function githubRepository(pkg?: { repository?: string | { url: string } }): string | undefined;
