"""The JSON API's read of the Disagreements (`/api/v1/disagreements/`), beside the page."""

from __future__ import annotations

from django.views.decorators.http import require_safe

from common.http import api_json
from common.pagecache import cached_page
from evidence import disagreements as disagreement_list
from registers import exporting


@require_safe
@cached_page(users_share=True)
def disagreements(request):
    """`/api/v1/disagreements/?page=N`: 100 a page, with every verdict's row count."""
    context = disagreement_list.page(request.GET.get("page"))
    page = context["page"]
    return api_json(
        {
            "row_counts": dict(context["row_counts"]),
            "count": page.paginator.count,
            "page": page.number,
            "pages": page.paginator.num_pages,
            "disagreements": exporting.disagreement_dicts(page.object_list),
        }
    )
