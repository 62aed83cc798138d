"""Register edits the evidence decides, and the patch that makes them (issue 51). Pure, no Django:
`edits` (what an edit is), `revision_edits` (labels and "Where it exists" against the schemas),
`text_edits` (an edit made in the register's own text, nothing else touched), `patch` (the
unified diff a person reviews)."""
