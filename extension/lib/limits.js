/**
 * The server's limits on what a person writes or a page gives (papershelf.domain.validation
 * LIMITS), for the extension's inputs and requests: a note box or a comment box takes as much as
 * the server keeps, a highlight is offered only for a quote the server takes, a lookup asks at
 * most as many keys as the server answers. tests/shared/limits.json holds the two equal.
 * Pure: no DOM, no chrome.*.
 */

export const LIMITS = Object.freeze({
  title: 1000,
  abstract: 20000,
  note: 100000,
  comment: 100000,
  exact: 2000,
  context: 64,
  section: 300,
  authors: 2000,
  author: 300,
  tags: 100,
  tag: 100,
  citation_key: 100,
  lookup: 1000,
  query: 500,
  user_name: 100,
});
