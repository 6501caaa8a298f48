from .web.serve import main

main()
