from .web.shell.serve import main

main()
