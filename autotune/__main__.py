from autotune.cli.main import main

raise SystemExit(main())
