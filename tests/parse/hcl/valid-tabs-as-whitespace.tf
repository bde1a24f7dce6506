a	=	1
block	"x"	{
	b = [	1,	2	]
}
