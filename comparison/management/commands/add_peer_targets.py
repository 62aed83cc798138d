"""manage.py add_peer_targets: mcp-proxy and supergateway in front of the fixture, as targets."""

from django.core.management.base import BaseCommand, CommandError

from comparison.services.peer_targets import PEERS_TO_ADD, add_peer_targets, install


class Command(BaseCommand):
    help = (
        "Install mcp-proxy (PyPI, own virtualenv) and supergateway (npm) and register each as a probe target "
        "in front of the built-in fixture on 127.0.0.1, started by each run and stopped after it."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--no-install", action="store_true", help="Register only; the peers must be installed already."
        )

    def handle(self, *args, **options):
        if not options["no_install"]:
            try:
                install(self.stdout.write)
            except Exception as error:  # pip, npm or the network: say which, no traceback
                raise CommandError(f"could not install the peers: {error}") from None
        missing = [peer.name for peer in PEERS_TO_ADD if not peer.installed()]
        if missing:
            raise CommandError(f"not installed: {', '.join(missing)} (run without --no-install)")
        for target, created in add_peer_targets():
            verb = "added" if created else "updated"
            self.stdout.write(f"{verb} probe target {target.name!r}: {target.url} (started by each run)")
