# Отказы: одно предложение, только вам, и что делать дальше. Ничего не изменилось.

error-internal = У нас что-то сломалось; попробуйте ещё раз чуть позже.
error-bad-arguments = Не удалось разобрать параметры; выберите их из списка команды.
error-channel-not-allowed = На этом сервере в этом канале не играют; спросите администратора сервера или перейдите в разрешённый канал.
error-guild-only = Партии играют в канале сервера; используйте команду там.
error-unknown-command = Этой команды больше нет; откройте список команд заново.
error-unknown-control = Эта кнопка больше не работает; покажите текущую доску командой { CMD("board") }.
error-unknown-variant = Такого варианта нет; выберите его из списка (все варианты: { CMD("variants") }).
error-no-game-here = У вас нет партии в этом канале; укажите её в опции «{ $game }» или посмотрите { CMD("games") }.
error-several-games = У вас здесь несколько партий ({ $list }); укажите нужную в опции «{ $game }».
error-bots-cannot-play = Другие боты не играют; вызовите человека или самого этого бота либо оставьте вызов открытым.
error-no-piece-moves = С поля { $square } вам ходить нечем; выберите другую фигуру.

error-challenge-yourself = Нельзя вызвать самого себя; укажите другого игрока или оставьте вызов открытым.
error-too-many-challenges = { $count ->
    [one] У вас уже { $count } открытый вызов; отмените его или дождитесь ответа.
    [few] У вас уже { $count } открытых вызова; отмените какой-нибудь или дождитесь ответов.
   *[many] У вас уже { $count } открытых вызовов; отмените какой-нибудь или дождитесь ответов.
}
error-no-such-challenge = Вызова №{ $id } нет; проверьте номер или начните новый: { CMD("challenge") }.
error-challenge-closed = На вызов №{ $id } уже нельзя ответить; начните новый: { CMD("challenge") }.
error-challenge-expired = Вызов №{ $id } истёк; начните новый: { CMD("challenge") }.
error-not-your-challenge = Вызов №{ $id } адресован игроку { $opponent }, а не вам; начните свой: { CMD("challenge") }.
error-own-challenge = Свой вызов №{ $id } принять нельзя; дождитесь соперника или отзовите вызов { $withdraw }.
error-not-challenger = Отозвать вызов №{ $id } может только его автор, { $challenger }.
error-decline-open = Вызов №{ $id } открыт для всех, отклонять нечего; просто оставьте его.
error-no-such-game = Партии №{ $id } нет; ваши партии покажет { CMD("games") }.
error-not-a-player = Это не ваша партия: её кнопки только для двух игроков.
error-game-over = Партия №{ $id } уже окончена; начните новую: { CMD("challenge") }.
error-not-your-turn = Сейчас не ваш ход: ходит { $player }.
error-stale-board = Доска уже изменилась: ходите на текущей доске (её покажет { CMD("board") }).
error-no-draw-offer = В партии №{ $id } никто не предлагает ничью.
error-no-takeback-request = В партии №{ $id } никто не просит вернуть ход.
error-already-offered-draw = Вы уже предложили ничью в партии №{ $id }; дождитесь ответа соперника.
error-already-asked-takeback = Вы уже попросили вернуть ход в партии №{ $id }; дождитесь ответа соперника.
error-takeback-pending = Соперник уже просит вернуть ход в партии №{ $id }: сначала ответьте на эту просьбу.
error-nothing-to-take-back = В партии №{ $id } нет вашего хода, который можно вернуть.
error-own-draw-offer = Нельзя отвечать на собственное предложение ничьей в партии №{ $id }; дождитесь соперника или отзовите его { $withdraw }.
error-own-takeback-request = Нельзя отвечать на собственную просьбу вернуть ход в партии №{ $id }; дождитесь соперника или отзовите её { $withdraw }.
# Как это сделать, для фраз выше: кнопка по её надписи, команда так, как её пишут там, где читают.
via-button = кнопкой «{ $label }»
via-command = командой { $command }
error-too-many-channels = Для партий можно назначить не больше { $max } каналов; назовите меньше или ни одного, чтобы разрешить все.
error-unknown-family = «{ $input }» — не вариант и не семейство рейтинга; выберите одно из: { $families }.

## Отказы движка правил

error-not-a-square = «{ $input }» — не поле: напишите букву вертикали и номер горизонтали, например e4.
error-not-a-move = «{ $input }» — не ход; ходы пишут так: e1-e3.
error-not-a-position = «{ $input }» — не позиция в OTN.
error-bad-rules-string = Строку правил OTN не удалось прочитать.
error-bad-record-line = Запись партии в OTN не читается в строке { $line }.
error-off-board = Поля { $square } нет на доске: эта доска { $size }×{ $size }.
error-beyond-any-board = Поля { $square } нет на доске: доски бывают не больше 26×26.
error-no-legal-move-game-over = Партия окончена.
error-no-piece = { $notation }: на поле { $square } нет фигуры.
error-not-your-piece = { $notation }: фигура на { $square } принадлежит другой стороне ({ $owner }), а ходят { $to_move }.
error-null-move = { $notation }: фигура должна перейти на другое поле.
error-not-straight = { $notation }: фигуры ходят по вертикали или горизонтали, как ладья.
error-blocked = { $notation }: путь закрывает фигура на { $square }.
error-passes-throne = { $notation }: через трон проходить нельзя.
error-stops-on-throne = { $notation }: на трон может встать только король.
error-stops-on-corner = { $notation }: на угловое поле может встать только король.
error-capture-mismatch = { $notation }: этот ход захватывает { $actual }, а не { $claimed }.
nothing = ничего
error-illegal-hint = { $why } Возможные ходы покажут { CMD("board") } и автодополнение хода.
error-illegal-hint-console = { $why } Возможные ходы покажут { CMD("moves") } и { CMD("board") }.

error-unknown-variant-named = «{ $input }» — не вариант; варианты: { $known }.
error-unknown-option = У варианта «{ $variant }» нет опции «{ $key }»; { $options ->
    [none] опций у него нет.
   *[other] его опции: { $options }.
}
error-bad-option-value = Опция { $key } варианта «{ $variant }» принимает { $expected }, а не «{ $value }».
or = или
error-option-syntax = «{ $input }» — не опция; пишите КЛЮЧ=ЗНАЧЕНИЕ, например escape=edge.
error-bad-size = Доска должна быть нечётного размера от { $min } до { $max }, а не { $size }.
error-bad-start = Начальная позиция не подходит к правилам.
error-unsupported-rules = По таким правилам здесь играть нельзя.

error-clock-unreadable = «{ $input }» — не часы; напишите время на ход, например 1d, 3d, 12h, 90m или 1d12h (от 1 минуты до 30 дней), можно с запасом, например 3d+7d, или none.
error-clock-no-time = Часы без времени на ход не годятся; напишите, например, 1d, 3d или 3d+7d, или none.
error-clock-too-short = { $duration } на ход — слишком мало: на ход даётся от 1 минуты до 30 дней, например 1d, 3d или 3d+7d.
error-clock-too-long = { $duration } на ход — слишком много: на ход даётся от 1 минуты до 30 дней, например 1d, 3d или 3d+7d.
error-clock-no-reserve = Запас { $duration } — это не запас; укажите хотя бы 1 минуту, например 3d+7d, или только время на ход.
error-clock-reserve-too-long = Запас { $duration } слишком велик: копить можно не больше 60 дней; укажите меньше, например 3d+7d.

error-record-too-long = В записи { $plies ->
    [one] { $plies } полуход
    [few] { $plies } полухода
   *[many] { $plies } полуходов
}; загрузить можно партию не длиннее { $max } полуходов.
error-storage-disk-full = Диск сервера заполнен, поэтому ничего не сохранено; попробуйте снова, когда администратор бота освободит место.
error-storage-io = Сервер не смог записать данные на диск, поэтому ничего не сохранено; попробуйте позже и сообщите администратору бота, если это повторится.
error-storage-busy = База данных сервера занята, поэтому ничего не сохранено; попробуйте ещё раз через минуту.
error-record-unplayable = По правилам этой записи играть нельзя.
error-record-move = Полуход { $ply } записи сыграть нельзя: { $why }
error-record-no-result = В записи не сказано, чем кончилась партия; добавьте тег [result:1], [result:-1] или [result:0].
error-bad-level = Уровня бота { $level } нет; выберите уровень от 1 до 5.
error-level-with-person = Уровень задаётся только для партии с ботом; не указывайте соперника или укажите самого бота.
error-bot-refuses-takeback = В рейтинговой партии бот ходы не возвращает; чтобы тренироваться с возвратом ходов, начните партию, указав { $unrated }.
error-hint-not-against-bot = Подсказки даются только в партиях с ботом.
error-hint-in-rated-game = В рейтинговых партиях подсказок нет; чтобы получать их, начните партию с ботом, указав { $unrated }.
error-the-bot-has-levels = Бот играет на пяти уровнях, у каждого свои рейтинг и партии: их покажет { $leaderboard }.
error-unrated-with-person = Без рейтинга можно играть только с ботом; уберите { $unrated } или укажите уровень, например { $level }, чтобы сыграть с ботом.
