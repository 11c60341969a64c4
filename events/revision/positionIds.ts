/**
 * Before issue 23 the apply items numbered recommendations by their position in the result
 * (`rec:0` for the first), while the result itself, summary.topChange and summary.quickWins
 * number them from `rec:1`. Items now carry the result's own id, so an id written under the old
 * numbering is the result's id one higher. Used by the upcaster of RevisionRequested v1 and by the
 * read of a generation stored under the old numbering; no other id (meta:, struct:) moved.
 */
export const resultIdOfPositionId = (id: string): string => {
  const m = /^rec:(\d+)$/.exec(id);
  return m ? `rec:${Number(m[1]) + 1}` : id;
};
