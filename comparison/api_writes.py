"""The API's writes: create and edit a target, start and cancel a run, upload a run made elsewhere.
Each takes an API token or a logged-in session (with its CSRF token: only token requests are
exempt) and the permission the pages ask for; what it refuses says why, as JSON."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404
from ninja import NinjaAPI
from ninja.security import HttpBearer, SessionAuth

from common.api_schemas import Error
from common.http import api_json
from common.path_ids import known_pk

from . import api as probe_api
from . import api_schemas as out
from .models import ProbeRun, ProbeTarget
from .probes.upload_check import UploadError
from .probing import RunRefused, cancel_run
from .run_upload import store_uploaded_run
from .selectors import run_cells
from .tasks import start_run
from .token_models import ApiToken


class TokenAuth(HttpBearer):
    """`Authorization: Bearer mcpc_…`: the token's user, if the token is live."""

    openapi_scheme = "bearer"

    def authenticate(self, request, token: str):
        user = ApiToken.user_for(token)
        if user is not None:
            request.user = user
        return user


class LoggedIn(SessionAuth):
    """A logged-in session, with its CSRF token checked; a request with no session at all is
    answered 401 (send a token or log in), not a CSRF 403."""

    def _get_key(self, request):
        if settings.SESSION_COOKIE_NAME not in request.COOKIES:
            return None
        return super()._get_key(request)


WRITE_AUTH = [TokenAuth(), LoggedIn()]
REFUSALS = {400: Error, 401: Error, 403: Error, 404: Error, 409: Error, 422: Error}


def _user(request, permission: str):
    user = request.auth
    if not user.has_perm(permission):
        raise PermissionDenied(f"{user} lacks the permission {permission!r}")
    return user


def _refusal(error: ValidationError | UploadError | RunRefused | str, status: int = 400):
    fields = getattr(error, "message_dict", None)
    message = "; ".join(f"{name}: {' '.join(texts)}" for name, texts in fields.items()) if fields else str(error)
    return api_json({"error": message[:2000], "status": status}, status)


def register(api: NinjaAPI) -> None:
    @api.post("/targets/", auth=WRITE_AUTH, response={201: out.TargetOut, **REFUSALS}, tags=["writes"])
    def create_target(request, body: out.TargetIn):
        """A new probe target (needs `comparison.add_probetarget`, as in the admin)."""
        _user(request, "comparison.add_probetarget")
        target = ProbeTarget(**body.dict())
        try:
            target.full_clean()
        except ValidationError as error:
            return _refusal(error)
        target.save()
        return api_json(probe_api.target_dict(target), 201)

    @api.patch("/targets/{pk:pk}/", auth=WRITE_AUTH, response={200: out.TargetOut, **REFUSALS}, tags=["writes"])
    def edit_target(request, pk: int, body: out.TargetPatch):
        """Change a target's fields (needs `comparison.change_probetarget`); the built-in one is fixed."""
        _user(request, "comparison.change_probetarget")
        target = get_object_or_404(ProbeTarget, pk=pk)
        if target.builtin:
            return _refusal("the built-in target cannot be edited")
        for name, value in body.dict(exclude_unset=True).items():
            if value is not None:
                setattr(target, name, value)
        try:
            target.full_clean()
        except ValidationError as error:
            return _refusal(error)
        target.save()
        return api_json(probe_api.target_dict(target))

    @api.post("/runs/", auth=WRITE_AUTH, response={201: out.RunOut, **REFUSALS}, tags=["writes"])
    def start(request, body: out.RunIn):
        """Queue a run of a target (needs `comparison.run_probe`, as the page's Run button)."""
        user = _user(request, "comparison.run_probe")
        target = get_object_or_404(ProbeTarget, pk=known_pk(body.target))
        try:
            run = start_run(
                target=target,
                revisions=body.revisions,
                scenarios=body.scenarios,
                user=user,
                conformance=body.conformance,
                real_host=body.real_hosts,
            )
        except RunRefused as refused:
            return _refusal(refused, 409)
        return api_json(probe_api.run_dict(run, []), 201)

    @api.post("/runs/{pk:pk}/cancel/", auth=WRITE_AUTH, response={200: out.CancelOut, **REFUSALS}, tags=["writes"])
    def cancel(request, pk: int):
        """End a queued or running run (needs `comparison.run_probe`); a run already ended stays as it was."""
        _user(request, "comparison.run_probe")
        run = get_object_or_404(ProbeRun, pk=pk)
        cancelled = cancel_run(run=run)
        run.refresh_from_db()
        return api_json({"run": run.pk, "cancelled": cancelled, "status": run.status})

    @api.post("/runs/upload/", auth=WRITE_AUTH, response={201: out.RunOut, **REFUSALS}, tags=["writes"])
    def upload(request, body: out.UploadIn, target: str = ""):
        """Store a run made elsewhere: the JSON `manage.py probe --json` prints, as a run of a target an
        admin configured (`?target=<name>`, else the name the probe printed). Needs `comparison.run_probe`."""
        user = _user(request, "comparison.run_probe")
        name = target or body.target
        found = ProbeTarget.objects.filter(name=name).first()
        if found is None:
            message = f"no target named {name!r}: an admin creates it first (POST /api/v1/targets/)"
            return api_json({"error": message[:500], "status": 404}, 404)
        try:
            run = store_uploaded_run(target=found, report=body.dict(), user=user)
        except UploadError as error:
            return _refusal(error)
        return api_json(probe_api.run_dict(run, run_cells([run.pk])[run.pk]), 201)
