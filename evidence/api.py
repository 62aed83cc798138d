"""The JSON API's read of the Disagreements (`/api/v1/disagreements/`), beside the page."""

from __future__ import annotations

from django.views.decorators.http import require_safe
from ninja import Router

from common import api_schemas as out
from common.http import api_json
from common.pagecache import cached_page
from evidence import disagreements as disagreement_list
from registers import exporting

#: The page's operation on the API's document (mcp_compare.api_v1 mounts it).
router = Router()


@router.get("/disagreements/", response={200: out.Paged, **out.NOT_FOUND}, url_name="disagreements", tags=["registers"])
@require_safe
@cached_page(users_share=True)
def disagreements(request, page: str = ""):
    """`/api/v1/disagreements/?page=N`: 100 a page, with every verdict's row count."""
    context = disagreement_list.page(request.GET.get("page"))
    shown = context["page"]
    return api_json(
        {
            "row_counts": dict(context["row_counts"]),
            "count": shown.paginator.count,
            "page": shown.number,
            "pages": shown.paginator.num_pages,
            "disagreements": exporting.disagreement_dicts(shown.object_list),
        }
    )
