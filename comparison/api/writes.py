"""The API's writes: create and edit a target, start and cancel a run, upload a run made elsewhere.
Each takes an API token or a logged-in session (with its CSRF token: only token requests are
exempt) and the permission the pages ask for; a token is narrowed further by its scopes and
targets. Uploading into a target is a permission of that target (its uploaders), never of the
built-in one. What a write refuses says why, as JSON."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404
from ninja import Router
from ninja.security import HttpBearer, SessionAuth

from common.api_schemas import Error
from common.http import api_json
from common.path_ids import known_pk
from comparison.api import reads as probe_api
from comparison.api import schemas as out
from comparison.models import ProbeRun, ProbeTarget
from comparison.models.tokens import SCOPE_RUN, SCOPE_TARGETS, SCOPE_UPLOAD, ApiToken
from comparison.probes.assessment.result_shape import upload_schema
from comparison.probes.run.upload_check import UploadError, strict_json
from comparison.selectors.runs import run_cells
from comparison.services.probing import RunRefused, cancel_run
from comparison.services.run_upload import store_uploaded_run, upload_key
from comparison.services.target_credentials import CredentialsLeftBehind, fields_of, keep_credentials_on_origin
from comparison.tasks import start_run


class TokenAuth(HttpBearer):
    """`Authorization: Bearer mcpc_…`: the token's user, if the token is live."""

    openapi_scheme = "bearer"

    def authenticate(self, request, token: str):
        found = ApiToken.live(token)
        if found is None:
            return None
        request.user, request.api_token = found.user, found
        return found.user


class LoggedIn(SessionAuth):
    """A logged-in session, with its CSRF token checked; a request with no session at all is
    answered 401 (send a token or log in), not a CSRF 403."""

    def _get_key(self, request):
        if settings.SESSION_COOKIE_NAME not in request.COOKIES:
            return None
        return super()._get_key(request)


WRITE_AUTH = [TokenAuth(), LoggedIn()]
REFUSALS = {400: Error, 401: Error, 403: Error, 404: Error, 409: Error, 422: Error}


def _user(request, permission: str | None, scope: str, target: ProbeTarget | None = None):
    """The caller, if it may: its permission, and, with a token, the token's scope and targets."""
    user = request.auth
    token: ApiToken | None = getattr(request, "api_token", None)
    if token is not None and not token.allows(scope):
        raise PermissionDenied(f"this token's scopes ({', '.join(token.scopes)}) do not include {scope!r}")
    if token is not None and target is not None and not token.reaches(target):
        raise PermissionDenied(f"this token is limited to other targets than {target.name!r}")
    if permission is not None and not user.has_perm(permission):
        raise PermissionDenied(f"{user} lacks the permission {permission!r}")
    return user


def _may_set_command(user, fields: dict) -> None:
    """A command is what the worker runs: setting one is a permission of its own, so that whoever
    may only edit targets cannot make the worker run what they like."""
    if fields.get("command") and not user.has_perm("comparison.set_target_command"):
        raise PermissionDenied(
            f"{user} lacks the permission 'comparison.set_target_command' (a command runs on the worker)"
        )


def _may_upload(user, target: ProbeTarget) -> None:
    if target.builtin:
        raise PermissionDenied(
            "the built-in target holds the dashboard's own measurements: nothing is uploaded into it"
        )
    if not (user.is_superuser or target.uploaders.filter(pk=user.pk).exists()):
        raise PermissionDenied(f"{user} is not among the uploaders of {target.name!r} (an admin adds them)")


UPLOAD_BODY, UPLOAD_DEFINITIONS = upload_schema()


def _refusal(error: ValidationError | UploadError | RunRefused | str, status: int = 400):
    fields = getattr(error, "message_dict", None)
    message = "; ".join(f"{name}: {' '.join(texts)}" for name, texts in fields.items()) if fields else str(error)
    return api_json({"error": message[:2000], "status": status}, status)


def register(router: Router) -> None:
    """The writes, on the router of the probe reads that share their paths (`/targets/`, `/runs/`),
    where Django's URL resolver finds both methods: targets, runs, uploads."""
    _target_writes(router)
    _run_writes(router)
    _upload_writes(router)


def _target_writes(router: Router) -> None:
    @router.post("/targets/", auth=WRITE_AUTH, response={201: out.TargetOut, **REFUSALS}, tags=["writes"])
    def create_target(request, body: out.TargetIn):
        """A new probe target (needs `comparison.add_probetarget`, as in the admin)."""
        user = _user(request, "comparison.add_probetarget", SCOPE_TARGETS)
        _may_set_command(user, body.dict())
        target = ProbeTarget(**body.dict())
        try:
            target.full_clean()
        except ValidationError as error:
            return _refusal(error)
        target.save()
        return api_json(probe_api.target_dict(target), 201)

    @router.patch("/targets/{pk:pk}/", auth=WRITE_AUTH, response={200: out.TargetOut, **REFUSALS}, tags=["writes"])
    def edit_target(request, pk: int, body: out.TargetPatch):
        """Change a target's fields (needs `comparison.change_probetarget`); the built-in one is fixed."""
        target = get_object_or_404(ProbeTarget, pk=pk)
        user = _user(request, "comparison.change_probetarget", SCOPE_TARGETS, target)
        _may_set_command(user, body.dict(exclude_unset=True))
        if target.builtin:
            return _refusal("the built-in target cannot be edited")
        before = fields_of(target)
        for name, value in body.dict(exclude_unset=True).items():
            if value is not None:
                setattr(target, name, value)
        try:
            keep_credentials_on_origin(before, fields_of(target), entered=body.dict(exclude_unset=True))
            target.full_clean()
        except CredentialsLeftBehind as error:
            return _refusal(str(error), 409)
        except ValidationError as error:
            return _refusal(error)
        target.save()
        return api_json(probe_api.target_dict(target))


def _run_writes(router: Router) -> None:
    @router.post("/runs/", auth=WRITE_AUTH, response={201: out.RunOut, **REFUSALS}, tags=["writes"])
    def start(request, body: out.RunIn):
        """Queue a run of a target (needs `comparison.run_probe`, as the page's Run button)."""
        target = get_object_or_404(ProbeTarget, pk=known_pk(body.target))
        user = _user(request, "comparison.run_probe", SCOPE_RUN, target)
        try:
            run = start_run(
                target=target,
                revisions=body.revisions,
                upstream_revisions=body.upstream_revisions,
                scenarios=body.scenarios,
                user=user,
                conformance=body.conformance,
                real_host=body.real_hosts,
            )
        except RunRefused as refused:
            return _refusal(refused, 409)
        return api_json(probe_api.run_dict(run, []), 201)

    @router.post("/runs/{pk:pk}/cancel/", auth=WRITE_AUTH, response={200: out.CancelOut, **REFUSALS}, tags=["writes"])
    def cancel(request, pk: int):
        """End a queued or running run (needs `comparison.run_probe`); a run already ended stays as it was."""
        run = get_object_or_404(ProbeRun, pk=pk)
        _user(request, "comparison.run_probe", SCOPE_RUN, run.target)
        cancelled = cancel_run(run=run)
        run.refresh_from_db()
        return api_json({"run": run.pk, "cancelled": cancelled, "status": run.status})


def _upload_writes(router: Router) -> None:
    @router.post(
        "/runs/upload/",
        auth=WRITE_AUTH,
        response={200: out.RunOut, 201: out.RunOut, **REFUSALS},
        tags=["writes"],
        openapi_extra={"requestBody": {"required": True, "content": {"application/json": {"schema": UPLOAD_BODY}}}},
    )
    def upload(request, target: str = ""):
        """Store a run made elsewhere: the JSON `manage.py probe --json` prints, as a run of a target an
        admin configured (`?target=<name>`, else the name the probe printed). The caller must be among
        the target's uploaders (a token also needs the `upload` scope). A body that departs from the
        schema is a 400 naming the place. A replay (the same `Idempotency-Key` header, or the same
        body) is answered 200 with the run already made; a new run is a 201. An uploaded run counts as
        the dashboard's own measurement (row evidence) only once an admin accepts it."""
        try:
            report = strict_json(request.body)
        except UploadError as error:
            return _refusal(error)
        named = report.get("target") if isinstance(report, dict) else ""
        name = target or (named if isinstance(named, str) else "")
        found = ProbeTarget.objects.filter(name=name).first()
        if found is None:
            message = f"no target named {name!r}: an admin creates it first (POST /api/v1/targets/)"
            return api_json({"error": message[:500], "status": 404}, 404)
        user = _user(request, None, SCOPE_UPLOAD, found)
        _may_upload(user, found)
        try:
            key = upload_key(request.headers.get("Idempotency-Key", "").strip(), request.body)
            run, made = store_uploaded_run(target=found, report=report, user=user, key=key)
        except UploadError as error:
            return _refusal(error)
        return api_json(probe_api.run_dict(run, run_cells([run.pk])[run.pk]), 201 if made else 200)
