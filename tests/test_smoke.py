from savenow.cli import build_parser


def test_parser_knows_every_command() -> None:
    parser = build_parser()
    for argv in (["preview"], ["auto", "k"], ["list"], ["apply"], ["cancel"], ["undo"], ["demo"], ["bot"]):
        assert parser.parse_args(argv).command == argv[0]
