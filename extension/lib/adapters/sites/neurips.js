/**
 * NeurIPS proceedings abstract pages (proceedings.neurips.cc and papers.nips.cc
 * `/paper…/hash/<hash>-Abstract….html`, and the older `/paper/<n>-<slug>`): the `citation_*`
 * tags say everything but the kind of paper. Pages of 2021 on name the proceedings
 * `citation_journal_title` (with its volume), older ones `citation_conference_title`; both are
 * the proceedings' book ("Part of Advances in Neural Information Processing Systems 1 (NIPS
 * 1988)"), so the venue is read as a booktitle and the paper as inproceedings, as NeurIPS's own
 * BibTeX has it.
 */

import { bareHost } from "../common.js";
import { embeddedEntry } from "../embedded.js";

const HOSTS = ["proceedings.neurips.cc", "papers.nips.cc", "papers.neurips.cc"];

export const neurips = {
  name: "neurips",
  hosts: HOSTS,
  match: (loc) => HOSTS.includes(bareHost(loc.hostname)) && /^\/paper(?:_files\/paper)?\/(?:\d{4}\/hash\/[^/]+-Abstract[^/]*\.html|\d+-[^/]+)$/.test(loc.pathname),
  find(doc) {
    const e = embeddedEntry(doc);
    if (!e) return [];
    const p = e.paper;
    if (p.journal && !p.booktitle) {
      p.booktitle = p.journal;
      p.journal = null;
      p.sources.booktitle = "site";
    }
    if (p.booktitle) p.entry_type = "inproceedings";
    return [e];
  },
};
